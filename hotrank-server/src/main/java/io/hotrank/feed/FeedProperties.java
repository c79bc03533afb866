package io.hotrank.feed;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The follow graph and the feeds, under {@code hotrank.feeds.*}.
 *
 * @param defaultLimit entries a page holds without {@code limit}
 * @param maxLimit the largest {@code limit} a page may ask for
 * @param countTtl how long a user's follow counts are cached in Redis (a follow or unfollow removes
 *     them at once; this bounds what a lost removal costs)
 */
@ConfigurationProperties("hotrank.feeds")
public record FeedProperties(
    @DefaultValue("20") int defaultLimit,
    @DefaultValue("100") int maxLimit,
    @DefaultValue("30s") Duration countTtl,
    @DefaultValue("10000") long pushThreshold,
    @DefaultValue("400") int inboxSize,
    @DefaultValue("400") int outboxSize,
    @DefaultValue("7d") Duration activeFor,
    @DefaultValue("10m") Duration followingTtl,
    @DefaultValue("true") boolean fanout,
    @DefaultValue("100") int fanoutBatch,
    @DefaultValue("200ms") Duration fanoutInterval) {

  public FeedProperties {
    String p = "hotrank.feeds.";
    if (maxLimit < 1 || defaultLimit < 1 || defaultLimit > maxLimit) {
      throw new IllegalArgumentException(
          p + "default-limit and max-limit must be at least 1, default-limit <= max-limit");
    }
    for (Duration d : new Duration[] {countTtl, activeFor, followingTtl, fanoutInterval}) {
      if (d.toMillis() < 1) {
        throw new IllegalArgumentException(p + "durations must be at least 1ms, got " + d);
      }
    }
    // A page reads the entries of the cursor's millisecond up to 1000 per set (FeedRedis).
    if (inboxSize > 1000 || outboxSize > 1000) {
      throw new IllegalArgumentException(p + "inbox-size and outbox-size are at most 1000");
    }
    if (pushThreshold < 0 || inboxSize < 1 || outboxSize < 1 || fanoutBatch < 1) {
      throw new IllegalArgumentException(
          p + "push-threshold must not be negative; inbox-size, outbox-size, fanout-batch >= 1");
    }
  }

  /** These settings with another push threshold (the benchmark and tests compare modes). */
  public FeedProperties withPushThreshold(long threshold) {
    return new FeedProperties(
        defaultLimit,
        maxLimit,
        countTtl,
        threshold,
        inboxSize,
        outboxSize,
        activeFor,
        followingTtl,
        fanout,
        fanoutBatch,
        fanoutInterval);
  }
}
