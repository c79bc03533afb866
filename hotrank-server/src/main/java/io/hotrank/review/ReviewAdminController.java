package io.hotrank.review;

import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/v1/admin/review}: the queue and the decisions (role operator to decide; audited as
 * {@code review.item} and {@code review.author}), and {@code
 * /api/v1/admin/boards/{name}/candidates}: a board unfiltered, held and blocked items marked.
 */
@RestController
class ReviewAdminController {

  static final String PATH = "/api/v1/admin/review";

  private final ReviewService review;

  ReviewAdminController(ReviewService review) {
    this.review = review;
  }

  /** The body of a decision. */
  record DecisionBody(@Nullable String status, @Nullable String reason) {}

  @GetMapping(PATH)
  ReviewService.Listing list(
      @RequestParam(required = false) @Nullable String board,
      @RequestParam(required = false) @Nullable String status,
      @RequestParam(defaultValue = "100") int limit) {
    return review.list(board, status, limit);
  }

  @AdminAction(Role.OPERATOR)
  @PutMapping(PATH + "/{biz}/{itemId}")
  ReviewDecision item(
      @PathVariable String biz,
      @PathVariable long itemId,
      @RequestBody(required = false) @Nullable DecisionBody body,
      Operator operator) {
    return review.decideItem(
        biz,
        itemId,
        body == null ? null : body.status(),
        body == null ? null : body.reason(),
        operator.name());
  }

  @AdminAction(Role.OPERATOR)
  @PutMapping(PATH + "/authors/{authorId}")
  ReviewDecision author(
      @PathVariable long authorId,
      @RequestBody(required = false) @Nullable DecisionBody body,
      Operator operator) {
    return review.decideAuthor(
        authorId,
        body == null ? null : body.status(),
        body == null ? null : body.reason(),
        operator.name());
  }

  /** A board's candidates: {@code items} best first, held and blocked ones marked. */
  record Candidates(
      String board, @Nullable String segment, String review, List<ReviewService.Candidate> items) {}

  @GetMapping("/api/v1/admin/boards/{name}/candidates")
  Candidates candidates(
      @PathVariable String name, @RequestParam(required = false) @Nullable String segment) {
    return new Candidates(name, segment, review.reviewOf(name), review.candidates(name, segment));
  }
}
