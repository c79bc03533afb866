package io.hotrank.cache;

import io.hotrank.redis.RedisRound;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Knows keys of a {@link TieredCache} that certainly do not exist (a Bloom filter in Redis), so
 * that the origin is not asked about them.
 *
 * @param <K> the cache key
 */
@FunctionalInterface
public interface AbsenceFilter<K> {

  /**
   * The part of a round that finds the keys among these that certainly do not exist (the others
   * may) and hands them to {@code into}.
   */
  RedisRound.Part certainlyAbsent(List<K> keys, Consumer<Set<K>> into);
}
