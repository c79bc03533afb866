/**
 * Cross-cutting HTTP: {@link io.hotrank.web.ProblemRenderer}, the one renderer of RFC 9457 problems
 * for every port; {@code ProblemHandler}, which answers the servlet path's exceptions with it (a
 * {@code HotrankException}'s own problem, 503 for storage failures, 500 for the unexpected); and
 * the servlet port's edge filters: the request body limit ({@code hotrank.web.max-body-size}), the
 * ingest keys of public writes ({@code hotrank.access.ingest-keys}) and the operators' bearer
 * tokens guarding {@code /api/v1/admin/**} and {@code /actuator/metrics}; and who an admin caller
 * is: {@link io.hotrank.web.Operators} authenticates a token as an {@link io.hotrank.web.Operator}
 * with a {@link io.hotrank.web.Role}, and each admin handler states the role it needs with {@link
 * io.hotrank.web.AdminAction} (failing closed without one). Knows no capability.
 */
@ApplicationModule(allowedDependencies = {"storage", "time"})
@NullMarked
package io.hotrank.web;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
