package io.hotrank.console;

import io.hotrank.problem.HotrankException;
import io.hotrank.review.ReviewService;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import jakarta.servlet.http.HttpServletResponse;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The review page: the items boards hold for review, with their evidence, and the forms that
 * approve or reject one item or every item of its author (role operator). Decisions go through
 * {@link ReviewService}, the service the admin API uses, which writes the audit entry and
 * re-publishes the boards.
 */
@Controller
class ReviewPages {

  /** How many queued items the page lists. */
  static final int LISTED = 100;

  private final ReviewService review;

  ReviewPages(ReviewService review) {
    this.review = review;
  }

  @GetMapping(ConsolePaths.ROOT + "/review")
  String queue(@RequestParam(required = false) @Nullable String board, Model model) {
    model.addAttribute("problem", null);
    return page(board, model);
  }

  @PostMapping(ConsolePaths.ROOT + "/review/{biz}/{itemId}")
  String item(
      @PathVariable String biz,
      @PathVariable long itemId,
      @RequestParam(defaultValue = "") String status,
      @RequestParam(defaultValue = "") String reason,
      @RequestParam(required = false) @Nullable String board,
      Operator operator,
      HttpServletResponse response,
      Model model) {
    return decide(
        board,
        operator,
        response,
        model,
        () -> review.decideItem(biz, itemId, status, reason, operator.name()));
  }

  @PostMapping(ConsolePaths.ROOT + "/review/authors/{authorId}")
  String author(
      @PathVariable long authorId,
      @RequestParam(defaultValue = "") String status,
      @RequestParam(defaultValue = "") String reason,
      @RequestParam(required = false) @Nullable String board,
      Operator operator,
      HttpServletResponse response,
      Model model) {
    return decide(
        board,
        operator,
        response,
        model,
        () -> review.decideAuthor(authorId, status, reason, operator.name()));
  }

  private String decide(
      @Nullable String board,
      Operator operator,
      HttpServletResponse response,
      Model model,
      Supplier<?> decision) {
    try {
      ConsoleForbiddenException.require(operator, Role.OPERATOR);
      decision.get();
    } catch (HotrankException e) {
      response.setStatus(e.type().status());
      model.addAttribute("problem", e.problem());
      return page(board, model);
    }
    return "redirect:"
        + ConsolePaths.ROOT
        + "/review"
        + (board == null || board.isBlank()
            ? ""
            : "?board="
                + java.net.URLEncoder.encode(board, java.nio.charset.StandardCharsets.UTF_8));
  }

  private String page(@Nullable String board, Model model) {
    String shown = board == null || board.isBlank() ? null : board;
    model.addAttribute("board", shown);
    model.addAttribute("listing", review.list(shown, "pending", LISTED));
    return "console/review";
  }
}
