package io.hotrank.feed;

import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The feed endpoints of the v1 API. */
@RestController
class FeedController {

  private final TimeFeeds timeFeeds;

  FeedController(TimeFeeds timeFeeds) {
    this.timeFeeds = timeFeeds;
  }

  @GetMapping("/api/v1/feeds/latest")
  FeedPage latest(
      @RequestParam(required = false) @Nullable String biz,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable String cursor) {
    return timeFeeds.page(biz, null, limit, cursor);
  }

  @GetMapping("/api/v1/feeds/tags/{tag}")
  FeedPage tag(
      @PathVariable String tag,
      @RequestParam(required = false) @Nullable String biz,
      @RequestParam(required = false) @Nullable String cursor,
      @RequestParam(required = false) @Nullable Integer limit) {
    return timeFeeds.page(biz, tag, limit, cursor);
  }
}
