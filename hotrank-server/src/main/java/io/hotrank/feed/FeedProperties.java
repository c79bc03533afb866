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
    @DefaultValue("30s") Duration countTtl) {

  public FeedProperties {
    String p = "hotrank.feeds.";
    if (maxLimit < 1 || defaultLimit < 1 || defaultLimit > maxLimit) {
      throw new IllegalArgumentException(
          p + "default-limit and max-limit must be at least 1, default-limit <= max-limit");
    }
    if (countTtl.toMillis() < 1) {
      throw new IllegalArgumentException(p + "count-ttl must be at least 1ms");
    }
  }
}
