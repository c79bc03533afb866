package io.hotrank.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Short cluster-wide leases on loading one cache key: {@code SET NX PX} with a random token, freed
 * by the lease scripts' compare-and-delete, so that only the holder frees it and an expired holder
 * never frees its successor's.
 *
 * <p>Not {@code io.hotrank.lock}'s leases: those keep a fence counter per name for good, which is
 * right for a few jobs and wrong for one name per cached key. A load needs no fence: what it writes
 * is versioned, and an older version is refused whoever writes it.
 */
public final class RedisLoadLeases {

  private static final RedisScript<Long> RELEASE = LuaScripts.load("lease-release.lua", Long.class);

  private final StringRedisTemplate redis;
  private final String prefix;
  private final Duration ttl;

  /**
   * @param keyPrefix prefix of the lease keys ({@code <keyPrefix><name>})
   * @param ttl how long a lease lasts: longer than a load takes, short enough that a holder that
   *     died delays the others little
   */
  public RedisLoadLeases(StringRedisTemplate redis, String keyPrefix, Duration ttl) {
    this.redis = redis;
    this.prefix = keyPrefix;
    this.ttl = ttl;
  }

  /**
   * @return what frees the lease, or null if another holder has it
   */
  public @Nullable Runnable tryAcquire(String name) {
    String key = prefix + name;
    String token = UUID.randomUUID().toString();
    if (!Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(key, token, ttl))) {
      return null;
    }
    return () -> redis.execute(RELEASE, List.of(key), token);
  }
}
