package io.hotrank.web;

import io.hotrank.problem.Problem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Checks, before an admin handler runs, that the request's {@link Operator} has the role the
 * handler needs: the one its {@link AdminAction} names, or else {@link Role#VIEWER} for a read and
 * {@link Role#ADMIN} for anything else (failing closed: a new endpoint nobody annotated is
 * admin-only, not open). A refusal is answered here, {@code 403 forbidden}, and logged at INFO with
 * the operator's name (never a token). Requests outside {@code /api/v1/admin} pass untouched; one
 * inside without an operator (which the {@link AdminGuardFilter} makes impossible) is 401.
 */
final class AdminRoleInterceptor implements HandlerInterceptor {

  private static final Logger log = LoggerFactory.getLogger(AdminRoleInterceptor.class);

  @Override
  public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
      throws IOException {
    if (!AdminGuardFilter.under(AdminGuardFilter.path(request), AdminGuardFilter.ADMIN_API)) {
      return true;
    }
    Operator operator = Operator.of(request);
    Role needed = needed(request, handler);
    if (operator.role().allows(needed)) {
      return true;
    }
    refuse(request, response, operator, needed);
    return false;
  }

  /** The role a handler needs for this request. */
  static Role needed(HttpServletRequest request, Object handler) {
    if (handler instanceof HandlerMethod method) {
      AdminAction action = method.getMethodAnnotation(AdminAction.class);
      if (action != null) {
        return action.value();
      }
    }
    return isRead(request) ? Role.VIEWER : Role.ADMIN;
  }

  static boolean isRead(HttpServletRequest request) {
    return "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod());
  }

  static void refuse(
      HttpServletRequest request, HttpServletResponse response, Operator operator, Role needed)
      throws IOException {
    log.info(
        "Refused {} {} to operator '{}' (role {}, needs {})",
        request.getMethod(),
        request.getRequestURI(),
        operator.name(),
        operator.role().configName(),
        needed.configName());
    Problem problem = new ForbiddenException(operator, needed).problem();
    ProblemRenderer.write(response, problem, request.getRequestURI());
  }
}
