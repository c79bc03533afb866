package io.hotrank.console;

import io.hotrank.console.ConsoleSessions.Session;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import io.hotrank.web.Operator;
import io.hotrank.web.ProblemRenderer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Guards every console page but sign-in and the assets: a request without a valid session is sent
 * to the sign-in page (a fragment polled by htmx is told to go there with {@code HX-Redirect}); a
 * POST without the session's CSRF token, in the {@code _csrf} field or the {@code X-Csrf-Token}
 * header, is refused with a {@code 403 csrf-refused} problem before any handler runs. The operator
 * is stored as the request attribute {@link Operator#ATTRIBUTE}, so handlers declare an {@link
 * Operator} parameter as the admin API's do; the session as {@link #SESSION}. Every answer is
 * marked {@code Cache-Control: no-store} and carries a content security policy that allows only
 * this origin's scripts. Thread-safe.
 */
final class ConsoleGuard implements HandlerInterceptor {

  private static final Logger log = LoggerFactory.getLogger(ConsoleGuard.class);

  /** The request attribute holding the {@link Session}. */
  static final String SESSION = Session.class.getName();

  /** A POST without its session's CSRF token. */
  static final ProblemType CSRF_REFUSED =
      new ProblemType(403, "csrf-refused", "Missing or wrong CSRF token");

  /** The CSRF token's form field. */
  static final String CSRF_FIELD = "_csrf";

  /** The CSRF token's header, for scripted requests. */
  static final String CSRF_HEADER = "X-Csrf-Token";

  private final ConsoleSessions sessions;

  ConsoleGuard(ConsoleSessions sessions) {
    this.sessions = sessions;
  }

  @Override
  public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
      throws Exception {
    response.setHeader("Cache-Control", "no-store");
    // htmx injects its own small style element; scripts come from this origin only.
    response.setHeader(
        "Content-Security-Policy",
        "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    response.setHeader("X-Content-Type-Options", "nosniff");
    if (request.getServletPath().equals(ConsolePaths.SIGN_IN)) {
      return true;
    }
    Optional<Session> session = sessions.resolve(request);
    boolean post = "POST".equals(request.getMethod());
    if (session.isEmpty()) {
      if (post) {
        refuse(request, response, "Sign in to the console first; this request has no session");
      } else if (request.getHeader("HX-Request") != null) {
        response.setHeader("HX-Redirect", ConsolePaths.SIGN_IN);
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
      } else {
        response.sendRedirect(ConsolePaths.SIGN_IN);
      }
      return false;
    }
    if (post) {
      String presented = request.getParameter(CSRF_FIELD);
      if (presented == null) {
        presented = request.getHeader(CSRF_HEADER);
      }
      if (!ConsoleSessions.csrfMatches(session.get(), presented)) {
        refuse(
            request,
            response,
            "This form's CSRF token is missing or belongs to another session; reload the page");
        return false;
      }
    }
    request.setAttribute(SESSION, session.get());
    request.setAttribute(Operator.ATTRIBUTE, session.get().operator());
    return true;
  }

  private static void refuse(
      HttpServletRequest request, HttpServletResponse response, String detail)
      throws java.io.IOException {
    log.debug("Refused {} {}: {}", request.getMethod(), request.getRequestURI(), detail);
    ProblemRenderer.write(response, Problem.of(CSRF_REFUSED, detail), request.getRequestURI());
  }
}
