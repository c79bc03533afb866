package io.hotrank.limit;

import io.hotrank.redis.LuaScripts;
import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The generic cell rate algorithm, kept in Redis ({@code gcra.lua}): a key holds the theoretical
 * arrival time of its next request, on Redis's clock, so every instance shares one clock and one
 * state. One script call per decision, which Redis runs atomically: no compare-and-swap loop, so a
 * hot key costs the same as any other (Bucket4j's Redis backends retry a CAS, which livelocks on
 * one hot key). A policy of {@code quota} per {@code window} admits up to {@code quota} requests at
 * once from an idle key, then one every {@code window / quota}. Thread-safe.
 */
public final class GcraLimiter {

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> GCRA = LuaScripts.load("gcra.lua", List.class);

  /**
   * A limit.
   *
   * @param name names it in keys and in the {@code RateLimit-Policy} header
   * @param quota requests per window, at least 1
   * @param window the window, at least 1 ms
   */
  public record Policy(String name, long quota, Duration window) {
    public Policy {
      if (name.isEmpty() || quota < 1 || window.toMillis() < 1) {
        throw new IllegalArgumentException(
            "a rate limit policy needs a name, a quota >= 1 and a window >= 1ms");
      }
      // The limiter counts in whole microseconds: at most one request a microsecond.
      if (quota > window.toMillis() * 1000) {
        throw new IllegalArgumentException(
            "rate limit '"
                + name
                + "': "
                + quota
                + " requests per "
                + window
                + " is more than one a microsecond");
      }
    }
  }

  /**
   * A decision.
   *
   * @param allowed whether the request may go on
   * @param remaining requests the client may still make at once after this one
   * @param retryAfter when a refused request may be made again (zero if allowed)
   * @param reset until the client's full quota is available again
   */
  public record Decision(boolean allowed, long remaining, Duration retryAfter, Duration reset) {}

  private final StringRedisTemplate redis;
  private final String keyPrefix;

  /**
   * @param keyPrefix prefixes every key, before {@code rl:<policy>:<client>}
   */
  public GcraLimiter(StringRedisTemplate redis, String keyPrefix) {
    this.redis = redis;
    this.keyPrefix = keyPrefix;
  }

  /**
   * Decides one request of {@code client} under {@code policy}.
   *
   * @throws org.springframework.dao.DataAccessException if Redis fails
   */
  public Decision decide(Policy policy, String client) {
    List<?> answer =
        redis.execute(
            GCRA,
            List.of(keyPrefix + "rl:" + policy.name() + ":" + client),
            Long.toString(policy.quota()),
            Long.toString(policy.window().toMillis()),
            "1");
    if (answer == null || answer.size() != 4) {
      throw new IllegalStateException("rate limit script inside a transaction or pipeline");
    }
    return new Decision(
        number(answer, 0) == 1,
        number(answer, 1),
        Duration.ofMillis(number(answer, 2)),
        Duration.ofMillis(number(answer, 3)));
  }

  private static long number(List<?> answer, int i) {
    return ((Number) answer.get(i)).longValue();
  }
}
