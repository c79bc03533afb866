package io.hotrank.openapi;

import io.hotrank.web.Operator;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The document's frame (title, the build's version, one relative server) and the customizer that
 * completes every operation. springdoc builds the document on its first request, from the handler
 * mappings, so it lists every controller of every module without this module knowing them.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

  static {
    // The authenticated operator is injected by OperatorArgumentResolver from the admin guard's
    // request attribute; a client never sends it, so it is no parameter of any operation.
    SpringDocUtils.getConfig().addRequestWrapperToIgnore(Operator.class);
  }

  /** The version when the build wrote no {@code META-INF/build-info.properties} (an IDE run). */
  static final String UNKNOWN_VERSION = "unknown";

  @Bean
  OpenAPI hotrankOpenApi(ObjectProvider<BuildProperties> build) {
    BuildProperties properties = build.getIfAvailable();
    String version = properties == null ? UNKNOWN_VERSION : properties.getVersion();
    return new OpenAPI()
        .info(
            new Info()
                .title("hotrank")
                .version(version == null ? UNKNOWN_VERSION : version)
                .description(
                    """
                    Hot lists, leaderboards and feeds for content communities: items and \
                    interaction events in, ranked boards and feeds out. Admin endpoints \
                    (`/api/v1/admin/**`) need `Authorization: Bearer <token>`. Every error is an \
                    RFC 9457 problem (`application/problem+json`); requests under `/api/v1/` are \
                    rate limited per client and route group. The prose reference is docs/api.md \
                    in the repository."""))
        // Relative: the document stays right behind a proxy or a gateway that rewrites the host,
        // and Swagger UI's "Try it out" calls the instance that served it.
        .addServersItem(new Server().url("/").description("The instance serving this document"));
  }

  @Bean
  OpenApiCustomizer problemResponses() {
    return new ProblemResponses();
  }

  @Bean
  io.swagger.v3.core.converter.ModelConverter requiredComponents() {
    return new RequiredComponents();
  }

  @Bean
  OperationCustomizer capabilityTags() {
    return new CapabilityTags();
  }
}
