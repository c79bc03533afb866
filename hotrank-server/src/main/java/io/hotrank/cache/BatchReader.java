package io.hotrank.cache;

import io.hotrank.redis.RedisRound;
import io.hotrank.redis.RedisUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One read of several keys of a {@link VersionedTieredCache}, in the steps {@link
 * TieredCache#batch} describes: local hits when made, then one Redis round (shared with other
 * caches' batches), then what the caller got from the origin. A single-key load runs through one
 * too, without the local look (it already looked). Not thread-safe.
 */
final class BatchReader<K, V> implements TieredCache.Batch<K, V> {

  private static final Logger log = LoggerFactory.getLogger(BatchReader.class);

  private final VersionedTieredCache<K, V> cache;
  private final LocalTier<K, V> local;
  private final List<K> asked = new ArrayList<>();
  private final Map<K, Read<V>> answers = new HashMap<>();
  private final List<K> unresolved = new ArrayList<>();
  private Map<K, Versioned<V>> found = Map.of();
  private Set<K> absent = Set.of();
  private boolean redisUp = true;

  /**
   * @param lookLocally whether to look into the local cache first (a single-key load already did)
   */
  BatchReader(VersionedTieredCache<K, V> cache, Collection<K> keys, boolean lookLocally) {
    this.cache = cache;
    this.local = cache.local;
    Set<K> seen = new HashSet<>();
    for (K key : keys) {
      if (!seen.add(key)) {
        continue;
      }
      asked.add(key);
      LocalTier.Entry<V> held = null;
      if (lookLocally) {
        cache.readListener.accept(key);
        held = local.lookup(key);
      }
      if (held != null && !held.floor()) {
        if (cache.ticker.read() >= held.freshUntil()) {
          cache.refreshLater(key);
        }
        answers.put(key, new Read<>(held.value(), ReadSource.LOCAL));
      } else {
        unresolved.add(key);
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if another batch is not of a cache built by {@link
   *     TieredCache#builder}
   */
  @Override
  public void readRedis(TieredCache.Batch<?, ?>... others) {
    BatchReader<?, ?>[] readers = new BatchReader<?, ?>[others.length];
    List<RedisRound.Part> parts = new ArrayList<>(redisParts(true, true));
    for (int i = 0; i < others.length; i++) {
      if (!(others[i] instanceof BatchReader<?, ?> other)) {
        throw new IllegalArgumentException("Not a batch of a TieredCache: " + others[i]);
      }
      readers[i] = other;
      parts.addAll(other.redisParts(true, true));
    }
    readRedis(parts, readers);
  }

  /** Runs the parts in one round; every batch given takes in the answers, or goes without Redis. */
  void readRedis(List<RedisRound.Part> parts, BatchReader<?, ?>... others) {
    if (parts.isEmpty()) {
      return;
    }
    try {
      cache.guarded("get", () -> cache.round.run(parts));
      redisAnswered();
      for (BatchReader<?, ?> other : others) {
        other.redisAnswered();
      }
    } catch (RedisUnavailableException e) {
      redisFailed();
      for (BatchReader<?, ?> other : others) {
        other.redisFailed();
      }
    }
  }

  /** The Redis reads of the unresolved keys: their values, what the filter says of them. */
  List<RedisRound.Part> redisParts(boolean values, boolean filtered) {
    if (unresolved.isEmpty() || !redisUp) {
      return List.of();
    }
    List<K> keys = List.copyOf(unresolved);
    List<RedisRound.Part> parts = new ArrayList<>(2);
    if (values) {
      parts.add(cache.remote.getAll(keys, answer -> found = answer));
    }
    AbsenceFilter<K> filter = cache.filter;
    if (filtered && filter != null) {
      // A key this instance holds a floor of was created: the filter is not asked about it.
      List<K> unknown = keys.stream().filter(key -> !local.knownToExist(key)).toList();
      if (!unknown.isEmpty()) {
        parts.add(filter.certainlyAbsent(unknown, answer -> absent = answer));
      }
    }
    return parts;
  }

  /** Takes in a round's answers: the values Redis held, then the keys the filter denies. */
  private void redisAnswered() {
    for (K key : List.copyOf(unresolved)) {
      Versioned<V> value = found.get(key);
      if (value != null && !local.olderThanFloor(key, value)) {
        // (a value older than this instance's floor: Redis missed an invalidation it heard)
        local.put(key, value);
        answers.put(key, new Read<>(value.value(), ReadSource.REDIS));
        unresolved.remove(key);
      } else if (absent.contains(key) && !local.knownToExist(key)) {
        // (a create this instance heard of while the round was out outranks the filter)
        local.put(key, new Versioned<>(0, null));
        answers.put(key, new Read<>(null, ReadSource.REDIS));
        cache.metrics.filtered.increment();
        unresolved.remove(key);
      }
    }
    found = Map.of();
    absent = Set.of();
  }

  /** Goes on without Redis: no later step of this batch reads or writes it. */
  void redisFailed() {
    redisUp = false;
    found = Map.of();
    absent = Set.of();
  }

  /** Whether Redis has not failed this batch. */
  boolean redisUp() {
    return redisUp;
  }

  /** Whether every key is answered. */
  boolean resolvedAll() {
    return unresolved.isEmpty();
  }

  @Override
  public @Nullable Read<V> answer(K key) {
    return answers.get(key);
  }

  @Override
  public List<K> unresolved() {
    return List.copyOf(unresolved);
  }

  @Override
  public void resolve(Map<K, Versioned<V>> loaded, Collection<K> keys) {
    List<RemotePut<K, V>> puts = install(loaded, keys);
    if (redisUp && !puts.isEmpty()) {
      try {
        cache.background.execute(() -> cache.writeBack(puts));
      } catch (RejectedExecutionException e) {
        log.debug("Cache '{}': write-back skipped, shutting down", cache.name);
      }
    }
  }

  /**
   * Installs what the origin answered for these unresolved keys locally and as answers.
   *
   * @return what to write back into Redis
   */
  List<RemotePut<K, V>> install(Map<K, Versioned<V>> loaded, Collection<K> keys) {
    List<RemotePut<K, V>> puts = new ArrayList<>(keys.size());
    for (K key : keys) {
      if (!unresolved.remove(key)) {
        continue;
      }
      Versioned<V> value = loaded.getOrDefault(key, new Versioned<>(0, null));
      Duration ttl =
          cache.jitter.apply(value.value() == null ? cache.negativeTtl : cache.remoteTtl);
      puts.add(new RemotePut<>(key, value, ttl));
      local.put(key, value);
      answers.put(key, new Read<>(value.value(), ReadSource.DB));
    }
    return puts;
  }

  @Override
  public Map<K, Read<V>> answers() {
    Map<K, Read<V>> ordered = new LinkedHashMap<>();
    for (K key : asked) {
      Read<V> read = answers.get(key);
      if (read != null) {
        ordered.put(key, read);
        cache.metrics.read(read.source());
      }
    }
    return ordered;
  }
}
