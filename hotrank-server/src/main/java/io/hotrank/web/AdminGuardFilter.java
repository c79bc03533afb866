package io.hotrank.web;

import io.hotrank.problem.Problem;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards {@code /api/v1/admin/**} and {@code /actuator/metrics/**} with the operators' bearer
 * tokens. A servlet filter, after the body limit and the rate limits, so that a refusal never
 * travels as an exception: every request without an operator's token, whatever its method (a CORS
 * preflight, HEAD, OPTIONS included), is answered 401 here with the {@link UnauthorizedException}
 * problem, and logs one DEBUG line (never the token). A request with one goes on with the {@link
 * Operator} as the request attribute {@link Operator#ATTRIBUTE}; which role each admin handler
 * needs is checked afterwards by {@link AdminRoleInterceptor}, except for Actuator's metrics,
 * checked here (reads need a viewer, anything else an admin). The path is the one the handlers see,
 * decoded and normalized by the container and without path parameters, so {@code
 * /api/v1/admin;x/jobs}, {@code /api/v1/x/../admin/jobs}, {@code /api/v1/%61dmin/jobs} and trailing
 * slashes are guarded as well. Thread-safe.
 */
final class AdminGuardFilter implements Filter {

  private static final Logger log = LoggerFactory.getLogger(AdminGuardFilter.class);

  /** The admin API, under which handlers state the role they need. */
  static final String ADMIN_API = "/api/v1/admin";

  /** The guarded paths and everything under them. */
  static final List<String> GUARDED = List.of(ADMIN_API, "/actuator/metrics");

  private final Operators operators;

  AdminGuardFilter(Operators operators) {
    this.operators = operators;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    String path = path(request);
    if (!guarded(path)) {
      chain.doFilter(req, res);
      return;
    }
    Optional<Operator> operator = operators.authenticateHeader(request.getHeader("Authorization"));
    if (operator.isEmpty()) {
      log.debug("Refused {} {}: no operator's token", request.getMethod(), request.getRequestURI());
      Problem problem =
          new UnauthorizedException("This endpoint needs 'Authorization: Bearer <operator token>'")
              .problem();
      ProblemRenderer.write((HttpServletResponse) res, problem, request.getRequestURI());
      return;
    }
    if (!under(path, ADMIN_API)
        && !AdminRoleInterceptor.isRead(request)
        && !operator.get().role().allows(Role.ADMIN)) {
      AdminRoleInterceptor.refuse(request, (HttpServletResponse) res, operator.get(), Role.ADMIN);
      return;
    }
    request.setAttribute(Operator.ATTRIBUTE, operator.get());
    chain.doFilter(req, res);
  }

  static String path(HttpServletRequest request) {
    return request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
  }

  static boolean guarded(String path) {
    for (String prefix : GUARDED) {
      if (under(path, prefix)) {
        return true;
      }
    }
    return false;
  }

  static boolean under(String path, String prefix) {
    return path.equals(prefix) || path.startsWith(prefix + "/");
  }
}
