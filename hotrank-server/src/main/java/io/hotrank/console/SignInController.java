package io.hotrank.console;

import io.hotrank.web.Operator;
import io.hotrank.web.Operators;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Signing in and out. A token is checked by {@link Operators#authenticate}, the same check as the
 * admin API's bearer token; a wrong one answers the form again with status 401 and sets no cookie.
 * Sign-in itself carries no CSRF token (there is no session yet); the session cookie is {@code
 * SameSite=Strict}, and signing someone in with a token of one's own gains nothing.
 */
@Controller
class SignInController {

  private static final Logger log = LoggerFactory.getLogger(SignInController.class);

  private final Operators operators;
  private final ConsoleSessions sessions;

  SignInController(Operators operators, ConsoleSessions sessions) {
    this.operators = operators;
    this.sessions = sessions;
  }

  @GetMapping(ConsolePaths.ROOT)
  String root() {
    return "redirect:" + ConsolePaths.ROOT + "/boards";
  }

  @GetMapping(ConsolePaths.SIGN_IN)
  String form() {
    return "console/sign-in";
  }

  @PostMapping(ConsolePaths.SIGN_IN)
  String signIn(
      @RequestParam(defaultValue = "") String token,
      HttpServletRequest request,
      HttpServletResponse response,
      Model model) {
    Optional<Operator> operator = operators.authenticate(token.strip());
    if (operator.isEmpty()) {
      log.info("Console sign-in refused from {}: unknown token", request.getRemoteAddr());
      response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
      model.addAttribute("error", "That token is not an operator's token.");
      return "console/sign-in";
    }
    log.info(
        "Console sign-in: operator '{}' from {}", operator.get().name(), request.getRemoteAddr());
    response.addHeader(
        HttpHeaders.SET_COOKIE, sessions.open(operator.get(), secure(request)).toString());
    return "redirect:" + ConsolePaths.ROOT + "/boards";
  }

  @PostMapping(ConsolePaths.ROOT + "/sign-out")
  String signOut(HttpServletRequest request, HttpServletResponse response) {
    response.addHeader(HttpHeaders.SET_COOKIE, sessions.close(secure(request)).toString());
    return "redirect:" + ConsolePaths.SIGN_IN;
  }

  /** HTTPS, directly or behind a proxy that says so: the cookie then travels only over HTTPS. */
  static boolean secure(HttpServletRequest request) {
    @Nullable String forwarded = request.getHeader("X-Forwarded-Proto");
    return request.isSecure() || "https".equalsIgnoreCase(forwarded);
  }
}
