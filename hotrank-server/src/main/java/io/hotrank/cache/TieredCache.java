package io.hotrank.cache;

import io.hotrank.redis.RedisReadGuard;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A read-through cache in three tiers: a bounded local cache (Caffeine, W-TinyLFU), a shared {@link
 * RemoteTier} (Redis) and the {@link Origin} (the database). Every value carries the origin's
 * version of it, and no tier ever replaces a value by an older version. Built by {@link #builder}.
 * Protections:
 *
 * <ul>
 *   <li><b>Breakdown.</b> Concurrent misses of a key load it once per instance (single flight); a
 *       single-key load that misses Redis too takes a short cluster-wide {@link LoadLease} before
 *       asking the origin, so the cluster asks once. A caller that finds the lease taken polls
 *       Redis for the other instance's result for at most {@code leaseWait}, then asks the origin
 *       itself rather than hang. Local entries expire logically: past {@code fresh}, the stale
 *       value is served while one background load refreshes it.
 *   <li><b>Penetration.</b> Keys the origin does not have are cached as absent ("negative entries",
 *       for {@code negativeTtl}); an {@link AbsenceFilter} (a Bloom filter) answers "certainly
 *       absent" for a key before the origin is asked.
 *   <li><b>Avalanche.</b> Every time to live carries random jitter, and the origin is reached only
 *       through a bulkhead: when it is full for longer than its wait, the read is shed with {@link
 *       OriginBusyException} (503 with Retry-After) instead of piling onto the database.
 *   <li><b>Consistency.</b> {@link #invalidate} replaces an entry, locally and in Redis, by a
 *       <i>floor</i>: a marker of the new version that readers treat as a miss and that refuses any
 *       older value a load still in flight may try to write. {@link #clearLocal} drops every local
 *       entry (after a Redis reconnect, when invalidations may have been missed).
 *   <li><b>Hot keys.</b> {@link #pin} keeps a key in a small map beside the bounded cache, out of
 *       reach of eviction, until the pin ends; invalidations and refreshes still apply to it.
 * </ul>
 *
 * Redis reads go through the {@link RedisReadGuard}; a Redis that fails costs freshness, not the
 * answer. Implementations are thread-safe.
 *
 * @param <K> the key, with proper {@code equals} and {@code hashCode}
 * @param <V> the value, immutable
 */
public interface TieredCache<K, V> {

  /**
   * A builder of a cache named {@code name}: the name tags its metrics ({@code cache}) and names
   * its Redis calls in logs.
   */
  static <K, V> TieredCacheBuilder<K, V> builder(String name) {
    return new TieredCacheBuilder<>(name);
  }

  /** Told of every read of a key, on the reading thread (hot-key counting); must be cheap. */
  void onRead(Consumer<K> listener);

  /**
   * Reads one key.
   *
   * @throws OriginBusyException if the key had to come from the origin and the bulkhead was full
   */
  Read<V> get(K key);

  /**
   * Reads several keys: local hits, then one Redis round trip for the rest (their values and what
   * the filter says of them, together), then one origin query for what Redis lacked. No cluster
   * lease: a batch never waits on one key. What the origin gave is written back into Redis after
   * the answer.
   *
   * @return every key, in the order given, with its answer
   * @throws OriginBusyException if some keys had to come from the origin and the bulkhead was full
   */
  Map<K, Read<V>> getAll(Collection<K> keys);

  /**
   * Starts a read of several keys in steps, for a caller that reads several caches' batches in one
   * Redis round trip and one origin query ({@link #getAll} is the one-cache case): the batch looks
   * into the local cache now; {@link Batch#readRedis} reads the rest from Redis, together with
   * other batches; what is left {@link Batch#unresolved} the caller loads through {@link
   * #askOrigin} and hands to {@link Batch#resolve}.
   */
  Batch<K, V> batch(Collection<K> keys);

  /**
   * Runs an origin query through the bulkhead, counted as this cache's.
   *
   * @throws OriginBusyException if the bulkhead stayed full past its wait
   */
  <T> T askOrigin(Supplier<T> query);

  /**
   * Replaces the key's entry by a floor of {@code version} locally, so that this instance reads it
   * anew and never installs an older value of it; what invalidation notices call.
   */
  void invalidateLocal(K key, long version);

  /**
   * Replaces the key's entry by a floor of {@code version} in Redis and locally: what a writer
   * calls after its database write committed, before announcing the version to other instances.
   *
   * @throws RuntimeException if Redis did not take the floor (the local one is in place)
   */
  void invalidate(K key, long version);

  /**
   * Puts a floor of {@code version} into Redis. Not through the read guard: a write must not be
   * skipped because reads are failing, nor count in their breaker.
   *
   * @throws RuntimeException if Redis did not take it (the caller retries)
   */
  void invalidateRemote(K key, long version);

  /**
   * Writes a value the origin just committed into Redis and locally, unless either holds a higher
   * version: for writers that know the new value (the event folder's counters). Not through the
   * read guard.
   *
   * @throws RuntimeException if Redis did not take them (the entries this instance held of the keys
   *     are updated all the same)
   */
  void putAll(Map<K, Versioned<V>> values);

  /** Drops every local entry, pinned ones included (their pins stay). */
  void clearLocal();

  /**
   * Keeps the key in this instance's memory until {@code until} (ticker nanos), out of reach of
   * eviction; a later pin extends it.
   */
  void pin(K key, long until);

  /** Ends the pins whose time is over; their entries go back to the bounded cache. */
  void unpinExpired();

  /** Whether this instance holds a readable value or absence of the key, without loading it. */
  boolean holdsLocally(K key);

  /**
   * One read of several keys of one cache, in the steps {@link TieredCache#batch} describes. Not
   * thread-safe: one caller drives it.
   *
   * @param <K> the cache key
   * @param <V> the cached value
   */
  interface Batch<K, V> {

    /**
     * Reads what is not held locally from Redis in one round trip, together with the other batches'
     * reads: the values and, where the cache has a filter, which keys certainly do not exist. If
     * Redis fails, every batch goes on without it.
     *
     * @param others batches of other caches built by {@link TieredCache#builder}
     */
    void readRedis(Batch<?, ?>... others);

    /** The key's answer so far: null while unresolved. */
    @Nullable Read<V> answer(K key);

    /** The keys neither the local cache nor Redis answered: the origin's to answer. */
    List<K> unresolved();

    /**
     * Installs what the origin answered for these unresolved keys (a key it left out does not
     * exist) and writes it back into Redis after the answer, on a background thread.
     */
    void resolve(Map<K, Versioned<V>> loaded, Collection<K> keys);

    /** The answers, in the order asked; a key left unresolved is left out. Counts them as reads. */
    Map<K, Read<V>> answers();
  }
}
