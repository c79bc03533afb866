/**
 * The OpenAPI description of the HTTP API, served by springdoc at {@code /v3/api-docs} with Swagger
 * UI at {@code /swagger-ui.html}. The controllers stay free of documentation annotations: springdoc
 * reads their mappings, and {@link io.hotrank.openapi.ProblemResponses} adds what is the same for
 * every endpoint from one place (the {@code application/problem+json} answers of the edge filters
 * and the problem handler, the admin bearer token), so a controller added later is described as
 * soon as it exists. {@code OpenApiDocumentTest} fails on a controller mapping missing from the
 * document. Knows no capability.
 */
@ApplicationModule(allowedDependencies = {"web"})
@NullMarked
package io.hotrank.openapi;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
