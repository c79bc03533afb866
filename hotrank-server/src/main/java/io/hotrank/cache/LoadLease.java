package io.hotrank.cache;

import org.jspecify.annotations.Nullable;

/**
 * A cluster-wide lease on loading one key of a {@link TieredCache}, so that the cluster asks the
 * origin once for a key every instance misses.
 *
 * @param <K> the cache key
 */
@FunctionalInterface
public interface LoadLease<K> {

  /**
   * @param floor the newest version of the key this instance knows of (its floor, else 0): part of
   *     the lease's name, so that a load started after an invalidation never waits on one that
   *     started before it, and read the older version
   * @return what releases the lease, or null if another load holds it
   */
  @Nullable Runnable tryAcquire(K key, long floor);
}
