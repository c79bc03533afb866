package io.hotrank.feed;

import io.hotrank.web.AdminAction;
import io.hotrank.web.Role;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The feed endpoints of the v1 API. */
@RestController
class FeedController {

  private final TimeFeeds timeFeeds;
  private final FollowingFeed followingFeed;
  private final FanOut fanOut;

  FeedController(TimeFeeds timeFeeds, FollowingFeed followingFeed, FanOut fanOut) {
    this.timeFeeds = timeFeeds;
    this.followingFeed = followingFeed;
    this.fanOut = fanOut;
  }

  @GetMapping("/api/v1/users/{userId}/feed")
  FeedPage following(
      @PathVariable long userId,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable String cursor) {
    return followingFeed.page(userId, limit, cursor);
  }

  /** What {@link #fanOutNow} did. */
  record FanOutBody(int items) {}

  /** Hands every created item on to the following feeds now (the job does within a second). */
  @AdminAction(Role.OPERATOR)
  @PostMapping("/api/v1/admin/feeds/fanout")
  FanOutBody fanOutNow() {
    return new FanOutBody(fanOut.drain(Integer.MAX_VALUE));
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
