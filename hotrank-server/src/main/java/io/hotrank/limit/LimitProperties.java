package io.hotrank.limit;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Rate limits, under {@code hotrank.limits.*}: one policy per route group, each a quota of requests
 * per window for one client. A client is its {@code clientHeader} value if that is one of {@code
 * apiKeys}, else its remote address: a key not listed counts as the address it comes from.
 *
 * @param enabled false admits every request and sends no rate limit headers
 * @param clientHeader the request header naming the client (an API key); without it, or with a key
 *     not in {@code apiKeys}, a client is its remote address
 * @param apiKeys the API keys that name a client of their own; empty, the default: none does, every
 *     client is its remote address
 * @param ingestQuota requests each client may make per {@code ingestWindow} to the write endpoints
 *     (events, items, follows: every method but GET and HEAD under {@code /api/v1/}); 0 for no
 *     limit
 * @param ingestWindow the ingest window, whole seconds
 * @param readsQuota the same for reads (GET and HEAD under {@code /api/v1/} but admin); 0, the
 *     default, for no limit: a limited read costs one Redis round trip
 * @param readsWindow the reads window, whole seconds
 * @param adminQuota the same for {@code /api/v1/admin/**}
 * @param adminWindow the admin window, whole seconds
 * @param consoleQuota the same for the operator console, {@code /console/**} (its pages, the
 *     fragment an open board page polls every second, its assets and sign-in); 0 for no limit
 * @param consoleWindow the console window, whole seconds
 * @param whenRedisDown what an instance does while Redis does not answer: {@code share} enforces
 *     its share of each quota ({@code quota / instances}) in memory; {@code open} admits every
 *     request; {@code closed} refuses every limited request with 503
 * @param instances how many instances share the limits, which sets each one's share when Redis is
 *     down
 * @param redisTimeout how long a decision waits for Redis before it is taken as {@code
 *     when-redis-down} says (longer than {@code hotrank.redis.read-timeout}: a slow answer from the
 *     shared limiter beats a local guess)
 */
@ConfigurationProperties("hotrank.limits")
public record LimitProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("X-Api-Key") String clientHeader,
    @DefaultValue("") java.util.Set<String> apiKeys,
    @DefaultValue("1000") long ingestQuota,
    @DefaultValue("1s") Duration ingestWindow,
    @DefaultValue("0") long readsQuota,
    @DefaultValue("1s") Duration readsWindow,
    @DefaultValue("10") long adminQuota,
    @DefaultValue("1s") Duration adminWindow,
    @DefaultValue("share") WhenRedisDown whenRedisDown,
    @DefaultValue("1") int instances,
    @DefaultValue("250ms") Duration redisTimeout,
    @DefaultValue("30") long consoleQuota,
    @DefaultValue("1s") Duration consoleWindow) {

  /** What an instance does while Redis does not answer. */
  public enum WhenRedisDown {
    /** Enforce this instance's share of each quota in memory. */
    SHARE,
    /** Admit every request. */
    OPEN,
    /** Refuse every limited request with 503. */
    CLOSED
  }

  public LimitProperties {
    String p = "hotrank.limits.";
    // An unset list binds as one empty string: no key at all.
    apiKeys =
        apiKeys.stream()
            .map(String::strip)
            .filter(k -> !k.isEmpty())
            .collect(java.util.stream.Collectors.toUnmodifiableSet());
    if (instances < 1) {
      throw new IllegalArgumentException(p + "instances=" + instances + " must be at least 1");
    }
    if (redisTimeout.toMillis() < 1) {
      throw new IllegalArgumentException(p + "redis-timeout must be at least 1ms");
    }
    check(p + "ingest", ingestQuota, ingestWindow);
    check(p + "reads", readsQuota, readsWindow);
    check(p + "admin", adminQuota, adminWindow);
    check(p + "console", consoleQuota, consoleWindow);
  }

  private static void check(String group, long quota, Duration window) {
    if (quota < 0) {
      throw new IllegalArgumentException(group + "-quota=" + quota + " must not be negative");
    }
    // The RateLimit-Policy header states the window in whole seconds.
    if (window.toSeconds() < 1 || window.toMillis() % 1000 != 0) {
      throw new IllegalArgumentException(
          group + "-window=" + window + " must be a whole number of seconds, at least 1s");
    }
  }
}
