package io.hotrank.cache;

import io.hotrank.redis.RedisRound;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The shared tier of a {@link TieredCache} (Redis): every instance reads and writes it. It never
 * replaces an entry by a lower version of it. Implementations are thread-safe.
 *
 * @param <K> the cache key
 * @param <V> the cached value
 */
public interface RemoteTier<K, V> {

  /**
   * The part of a round that reads the keys: it hands {@code into} the keys held with a value or as
   * absent; a key the tier lacks or holds as a floor is left out.
   */
  RedisRound.Part getAll(List<K> keys, Consumer<Map<K, Versioned<V>>> into);

  /**
   * Writes each entry unless the tier holds a higher version of its key (value or floor). One round
   * trip.
   *
   * @throws RuntimeException if Redis did not take them
   */
  void putAll(List<RemotePut<K, V>> puts);

  /**
   * Replaces the key's entry by a floor of this version, unless it holds a higher version.
   *
   * @throws RuntimeException if Redis did not take it
   */
  void invalidate(K key, long version, Duration ttl);
}
