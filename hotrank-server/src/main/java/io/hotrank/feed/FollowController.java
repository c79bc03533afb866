package io.hotrank.feed;

import io.hotrank.feed.FollowStore.Side;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The follow graph's endpoints of the v1 API. */
@RestController
@RequestMapping("/api/v1/users")
class FollowController {

  /** One entry of a list: the other user and since when. */
  record Entry(long userId, Instant since) {}

  /** A page of a list. */
  record ListBody(long userId, long count, List<Entry> items, @Nullable String nextCursor) {}

  private final FollowGraph graph;

  FollowController(FollowGraph graph) {
    this.graph = graph;
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "204",
      description = "Following, also when it already was")
  @PutMapping("/{userId}/following/{authorId}")
  ResponseEntity<Void> follow(@PathVariable long userId, @PathVariable long authorId) {
    graph.follow(userId, authorId);
    return ResponseEntity.noContent().build();
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "204",
      description = "Not following, also when it was not")
  @DeleteMapping("/{userId}/following/{authorId}")
  ResponseEntity<Void> unfollow(@PathVariable long userId, @PathVariable long authorId) {
    graph.unfollow(userId, authorId);
    return ResponseEntity.noContent().build();
  }

  @GetMapping("/{userId}/following")
  ListBody following(
      @PathVariable long userId,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable String cursor) {
    return body(graph.page(Side.FOLLOWING, userId, limit, cursor));
  }

  @GetMapping("/{userId}/followers")
  ListBody followers(
      @PathVariable long userId,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable String cursor) {
    return body(graph.page(Side.FOLLOWERS, userId, limit, cursor));
  }

  private static ListBody body(FollowGraph.Page page) {
    return new ListBody(
        page.userId(),
        page.count(),
        page.items().stream().map(e -> new Entry(e.userId(), e.since())).toList(),
        page.nextCursor());
  }
}
