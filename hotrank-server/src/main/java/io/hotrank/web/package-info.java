/**
 * Cross-cutting HTTP: {@link io.hotrank.web.ProblemRenderer}, the one renderer of RFC 9457 problems
 * for every port; {@code ProblemHandler}, which answers the servlet path's exceptions with it (a
 * {@code HotrankException}'s own problem, 503 for storage failures, 500 for the unexpected); and
 * the servlet port's edge filters: the request body limit ({@code hotrank.web.max-body-size}) and
 * the admin bearer token guarding {@code /api/v1/admin/**} and {@code /actuator/metrics}. Knows no
 * capability.
 */
@ApplicationModule(allowedDependencies = {"storage", "time"})
@NullMarked
package io.hotrank.web;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
