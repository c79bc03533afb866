package io.hotrank.cache;

import java.util.List;
import java.util.Map;

/**
 * The origin of a {@link TieredCache}'s values (the database): what it answers is the truth, with
 * the version of each value. Called through the cache's bulkhead.
 *
 * @param <K> the cache key
 * @param <V> the cached value
 */
@FunctionalInterface
public interface Origin<K, V> {

  /** The keys' current versions, in one query; keys it never had are left out. */
  Map<K, Versioned<V>> loadAll(List<K> keys);
}
