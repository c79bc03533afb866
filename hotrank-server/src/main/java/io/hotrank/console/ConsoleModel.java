package io.hotrank.console;

import io.hotrank.console.ConsoleSessions.Session;
import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.review.ReviewService;
import io.hotrank.web.Role;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;

/**
 * What every console page's model holds ({@code signedIn}: the operator and the CSRF token; {@code
 * canAct}: whether to offer actions at all; {@code reviewQueued}: the review queue's length, for
 * the nav), and the console's answer to a refused request: the page {@code console/problem} with
 * the problem's status and {@code detail}, instead of the API's JSON (ordered before the API's
 * problem handler, and limited to the console's controllers).
 */
@ControllerAdvice(basePackageClasses = ConsoleModel.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConsoleModel {

  private final ObjectProvider<ReviewService> review;

  ConsoleModel(ObjectProvider<ReviewService> review) {
    this.review = review;
  }

  @ModelAttribute
  void common(HttpServletRequest request, Model model) {
    model.addAttribute("reviewQueued", queued());
    if (request.getAttribute(ConsoleGuard.SESSION) instanceof Session session) {
      model.addAttribute("signedIn", session);
      model.addAttribute("canAct", session.operator().role().allows(Role.OPERATOR));
    } else {
      model.addAttribute("canAct", false);
    }
  }

  /** The review queue's length for the nav; null when it cannot be read (the page still shows). */
  private @Nullable Long queued() {
    ReviewService service = review.getIfAvailable();
    try {
      return service == null ? null : service.queued();
    } catch (RuntimeException e) {
      return null;
    }
  }

  @ExceptionHandler(HotrankException.class)
  String refused(HotrankException e, HttpServletResponse response, Model model) {
    Problem problem = e.problem();
    response.setStatus(problem.type().status());
    model.addAttribute("problem", problem);
    return "console/problem";
  }
}
