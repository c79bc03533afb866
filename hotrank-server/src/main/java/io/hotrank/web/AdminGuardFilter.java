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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards {@code /api/v1/admin/**} and {@code /actuator/metrics/**} with the admin bearer token. A
 * servlet filter, after the body limit and the rate limits, so that a refusal never travels as an
 * exception: every request without the token, whatever its method (a CORS preflight, HEAD, OPTIONS
 * included), is answered 401 here with the {@link UnauthorizedException} problem, and logs one
 * DEBUG line. The path is the one the handlers see, decoded and normalized by the container and
 * without path parameters, so {@code /api/v1/admin;x/jobs}, {@code /api/v1/x/../admin/jobs}, {@code
 * /api/v1/%61dmin/jobs} and trailing slashes are guarded as well. Thread-safe.
 */
final class AdminGuardFilter implements Filter {

  private static final Logger log = LoggerFactory.getLogger(AdminGuardFilter.class);

  /** The guarded paths and everything under them. */
  static final List<String> GUARDED = List.of("/api/v1/admin", "/actuator/metrics");

  private final AdminToken token;

  AdminGuardFilter(AdminToken token) {
    this.token = token;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    String path =
        request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    if (!guarded(path)) {
      chain.doFilter(req, res);
      return;
    }
    if (token.matchesAuthorizationHeader(request.getHeader("Authorization"))) {
      request.setAttribute(Operator.ATTRIBUTE, new Operator("admin", Role.ADMIN));
      chain.doFilter(req, res);
      return;
    }
    log.debug("Refused {} {}: no admin token", request.getMethod(), request.getRequestURI());
    Problem problem =
        new UnauthorizedException(
                "This endpoint needs 'Authorization: Bearer <hotrank.admin.token>'")
            .problem();
    ProblemRenderer.write((HttpServletResponse) res, problem, request.getRequestURI());
  }

  static boolean guarded(String path) {
    for (String prefix : GUARDED) {
      if (path.equals(prefix) || path.startsWith(prefix + "/")) {
        return true;
      }
    }
    return false;
  }
}
