package io.hotrank.console;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.trust.Actor;
import io.hotrank.trust.Actors;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import jakarta.servlet.http.HttpServletResponse;
import java.util.function.LongFunction;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The actors page: an actor looked up by user id, with what the platform says of it and its flag,
 * the form that flags it or clears the flag (role operator), and the actors flagged last. Changes
 * go through {@link Actors}, the service the admin API uses, which writes the audit entry.
 */
@Controller
class ActorPages {

  /** How many of the actors flagged last the page lists. */
  static final int FLAGGED = 50;

  private final Actors actors;

  ActorPages(Actors actors) {
    this.actors = actors;
  }

  @GetMapping(ConsolePaths.ROOT + "/actors")
  String actors(@RequestParam(required = false) @Nullable String userId, Model model) {
    model.addAttribute("problem", null);
    if (userId != null && !userId.isBlank()) {
      try {
        long id = userIdField(userId);
        model.addAttribute("userId", id);
        model.addAttribute("actor", actors.find(id).orElse(null));
      } catch (HotrankException e) {
        model.addAttribute("problem", e.problem());
      }
    }
    return page(model);
  }

  @PostMapping(ConsolePaths.ROOT + "/actors/{userId}/flag")
  String flag(
      @PathVariable String userId,
      @RequestParam(defaultValue = "") String reason,
      Operator operator,
      HttpServletResponse response,
      Model model) {
    return change(
        userId, operator, response, model, id -> actors.flag(id, reason, operator.name()));
  }

  @PostMapping(ConsolePaths.ROOT + "/actors/{userId}/unflag")
  String unflag(
      @PathVariable String userId,
      @RequestParam(defaultValue = "") String reason,
      Operator operator,
      HttpServletResponse response,
      Model model) {
    return change(
        userId, operator, response, model, id -> actors.unflag(id, operator.name(), reason));
  }

  private String change(
      String userId,
      Operator operator,
      HttpServletResponse response,
      Model model,
      LongFunction<Actor> change) {
    long id;
    try {
      ConsoleForbiddenException.require(operator, Role.OPERATOR);
      id = userIdField(userId);
      change.apply(id);
    } catch (HotrankException e) {
      response.setStatus(e.type().status());
      model.addAttribute("problem", e.problem());
      model.addAttribute("userId", userId);
      model.addAttribute("actor", null);
      return page(model);
    }
    return "redirect:" + ConsolePaths.ROOT + "/actors?userId=" + id;
  }

  private String page(Model model) {
    if (!model.containsAttribute("userId")) {
      model.addAttribute("userId", null);
      model.addAttribute("actor", null);
    }
    model.addAttribute("flagged", actors.recentlyFlagged(FLAGGED));
    return "console/actors";
  }

  private static long userIdField(String text) {
    try {
      long id = Long.parseLong(text.strip());
      if (id > 0) {
        return id;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new InvalidRequestException("userId", "must be a positive integer");
  }
}
