package io.hotrank.cache;

import static java.util.Objects.requireNonNull;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.hotrank.redis.RedisReadGuard;
import io.hotrank.redis.RedisRound;
import io.hotrank.redis.RedisUnavailableException;
import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link TieredCache} engine: a {@link LocalTier}, a {@link RemoteTier} and an {@link Origin},
 * with every write into a tier comparing versions. Batches are read by a {@link BatchReader}; this
 * class reads single keys (through a {@link SingleFlight} and the {@link LoadLease}) and applies
 * invalidations, pins and writes.
 *
 * <p>Why not Caffeine's {@code refreshAfterWrite} and {@code AsyncLoadingCache} alone: their loads
 * are per key and know nothing of versions, so an invalidation arriving during a load would be
 * overwritten by the older value; here every write into a tier compares versions.
 */
final class VersionedTieredCache<K, V> implements TieredCache<K, V> {

  private static final Logger log = LoggerFactory.getLogger(VersionedTieredCache.class);

  /** How often a caller waiting on another instance's load looks into Redis. */
  private static final Duration LEASE_POLL = Duration.ofMillis(5);

  final String name;
  final Duration remoteTtl;
  final Duration negativeTtl;
  private final Duration leaseWait;
  private final Duration redisTimeout;
  final Jitter jitter;
  final RemoteTier<K, V> remote;
  final RedisRound round;
  private final Origin<K, V> origin;
  final @Nullable AbsenceFilter<K> filter;
  private final @Nullable LoadLease<K> lease;
  private final RedisReadGuard guard;
  private final Bulkhead bulkhead;
  final Ticker ticker;
  final Executor background;
  final LocalTier<K, V> local;
  final TieredCacheMetrics metrics;
  private final SingleFlight<K, Read<V>> flights = new SingleFlight<>();
  volatile Consumer<K> readListener = key -> {};

  VersionedTieredCache(TieredCacheBuilder<K, V> settings) {
    this.name = settings.name;
    this.remoteTtl = requireNonNull(settings.remoteTtl);
    this.negativeTtl = requireNonNull(settings.negativeTtl);
    this.leaseWait = requireNonNull(settings.leaseWait);
    this.redisTimeout = requireNonNull(settings.redisTimeout);
    this.jitter = new Jitter(settings.jitter);
    this.remote = requireNonNull(settings.remote);
    this.round = requireNonNull(settings.round);
    this.origin = requireNonNull(settings.origin);
    this.filter = settings.filter;
    this.lease = settings.lease;
    this.guard = requireNonNull(settings.guard);
    this.bulkhead = requireNonNull(settings.bulkhead);
    this.ticker = requireNonNull(settings.ticker);
    this.background = requireNonNull(settings.background);
    this.local =
        new LocalTier<>(
            settings.localEntries,
            requireNonNull(settings.fresh),
            requireNonNull(settings.localTtl),
            negativeTtl,
            jitter,
            ticker);
    this.metrics = new TieredCacheMetrics(name, requireNonNull(settings.meters));
  }

  @Override
  public void onRead(Consumer<K> listener) {
    this.readListener = listener;
  }

  @Override
  public Read<V> get(K key) {
    readListener.accept(key);
    LocalTier.Entry<V> held = local.lookup(key);
    if (held != null && !held.floor()) {
      if (ticker.read() >= held.freshUntil()) {
        refreshLater(key);
      }
      metrics.read(ReadSource.LOCAL);
      return new Read<>(held.value(), ReadSource.LOCAL);
    }
    Read<V> read = loadShared(key);
    metrics.read(read.source());
    return read;
  }

  @Override
  public Map<K, Read<V>> getAll(Collection<K> keys) {
    BatchReader<K, V> batch = batch(keys);
    batch.readRedis();
    List<K> rest = batch.unresolved();
    if (!rest.isEmpty()) {
      batch.resolve(askOrigin(() -> origin.loadAll(rest)), rest);
    }
    return batch.answers();
  }

  @Override
  public BatchReader<K, V> batch(Collection<K> keys) {
    return new BatchReader<>(this, keys, true);
  }

  @Override
  public <T> T askOrigin(Supplier<T> query) {
    try {
      return bulkhead.executeSupplier(
          () -> {
            metrics.originQueries.increment();
            return query.get();
          });
    } catch (BulkheadFullException e) {
      metrics.shed.increment();
      throw new OriginBusyException(name);
    }
  }

  @Override
  public void invalidateLocal(K key, long version) {
    local.putFloor(key, version);
    // A load in progress may have read the old version: readers from now on start their own.
    flights.forget(key);
  }

  @Override
  public void invalidate(K key, long version) {
    invalidateLocal(key, version);
    invalidateRemote(key, version);
  }

  @Override
  public void invalidateRemote(K key, long version) {
    remote.invalidate(key, version, jitter.apply(remoteTtl));
  }

  @Override
  public void putAll(Map<K, Versioned<V>> values) {
    if (values.isEmpty()) {
      return;
    }
    List<RemotePut<K, V>> puts = new ArrayList<>(values.size());
    values.forEach(
        (key, value) -> {
          puts.add(new RemotePut<>(key, value, jitter.apply(remoteTtl)));
          if (local.lookup(key) != null) {
            local.put(key, value);
          }
        });
    remote.putAll(puts);
  }

  @Override
  public void clearLocal() {
    local.clear();
  }

  @Override
  public void pin(K key, long until) {
    local.pin(key, until);
  }

  @Override
  public void unpinExpired() {
    local.unpinExpired();
  }

  @Override
  public boolean holdsLocally(K key) {
    return local.holdsReadable(key);
  }

  /** Loads the key in the background, unless a load of it is in progress here. */
  void refreshLater(K key) {
    if (flights.inFlight(key)) {
      return;
    }
    background.execute(
        () -> {
          try {
            loadShared(key);
          } catch (RuntimeException e) {
            log.debug("Cache '{}': refresh of {} failed ({})", name, key, e.toString());
          }
        });
  }

  /** Loads one key, sharing a load of it in progress on this instance. */
  private Read<V> loadShared(K key) {
    return flights.load(key, () -> loadOne(key));
  }

  /**
   * Loads a key missing locally: Redis, then the filter, then the origin under the cluster lease,
   * writing what the origin gave back into Redis (before the lease is released) and locally.
   */
  private Read<V> loadOne(K key) {
    BatchReader<K, V> batch = new BatchReader<>(this, List.of(key), false);
    batch.readRedis(batch.redisParts(true, false));
    batch.readRedis(batch.redisParts(false, true));
    if (batch.resolvedAll()) {
      return requireNonNull(batch.answer(key));
    }
    Runnable release = null;
    if (lease != null && batch.redisUp()) {
      try {
        long floor = local.floor(key);
        release = guard.read(name + " lease", redisTimeout, () -> lease.tryAcquire(key, floor));
        Versioned<V> theirs =
            release == null ? awaitOtherInstance(key) : alreadyLoaded(key, release);
        if (theirs != null) {
          return new Read<>(theirs.value(), ReadSource.REDIS);
        }
      } catch (RedisUnavailableException e) {
        batch.redisFailed();
      }
    }
    try {
      List<RemotePut<K, V>> puts =
          batch.install(askOrigin(() -> origin.loadAll(List.of(key))), List.of(key));
      if (batch.redisUp()) {
        writeBack(puts);
      }
      return requireNonNull(batch.answer(key));
    } finally {
      if (release != null) {
        try {
          release.run();
        } catch (RuntimeException e) {
          log.debug("Cache '{}': lease release failed ({}); it expires", name, e.toString());
        }
      }
    }
  }

  /**
   * Runs a Redis call through the read guard, with this cache's timeout.
   *
   * @throws RedisUnavailableException if Redis failed, timed out, or the breaker is open
   */
  void guarded(String what, Runnable call) {
    guard.read(
        name + " " + what,
        redisTimeout,
        () -> {
          call.run();
          return null;
        });
  }

  /** Writes values the origin gave into Redis; a failure costs only a later miss. */
  void writeBack(List<RemotePut<K, V>> puts) {
    try {
      guarded("put", () -> remote.putAll(puts));
    } catch (RedisUnavailableException e) {
      log.debug("Cache '{}': write-back to Redis failed ({})", name, e.getMessage());
    }
  }

  /** The key's value in Redis, if it holds one (or an absence); null if not. One round trip. */
  private @Nullable Versioned<V> remoteValue(K key) {
    List<Map<K, Versioned<V>>> answer = new ArrayList<>(1);
    guarded("get", () -> round.run(List.of(remote.getAll(List.of(key), answer::add))));
    return answer.isEmpty() ? null : answer.getFirst().get(key);
  }

  /**
   * Looks into Redis once more after taking the lease: another instance may have loaded the key and
   * released its lease between this load's first look and its lease. Releases the lease if so.
   *
   * @return the value found, or null (the caller, holding the lease, asks the origin)
   */
  private @Nullable Versioned<V> alreadyLoaded(K key, Runnable release) {
    Versioned<V> theirs = remoteValue(key);
    if (theirs == null || local.olderThanFloor(key, theirs)) {
      return null;
    }
    local.put(key, theirs);
    try {
      release.run();
    } catch (RuntimeException e) {
      log.debug("Cache '{}': lease release failed ({}); it expires", name, e.toString());
    }
    return theirs;
  }

  /**
   * Polls Redis for the value another instance is loading, for at most {@code leaseWait}.
   *
   * @return the value it wrote, or null if none came in time (the caller asks the origin itself)
   */
  private @Nullable Versioned<V> awaitOtherInstance(K key) {
    long deadline = ticker.read() + leaseWait.toNanos();
    while (ticker.read() < deadline) {
      LockSupport.parkNanos(LEASE_POLL.toNanos());
      if (Thread.currentThread().isInterrupted()) {
        break;
      }
      Versioned<V> theirs;
      try {
        theirs = remoteValue(key);
      } catch (RedisUnavailableException e) {
        break;
      }
      if (theirs != null && !local.olderThanFloor(key, theirs)) {
        local.put(key, theirs);
        metrics.leaseWaitsServed.increment();
        return theirs;
      }
    }
    metrics.leaseWaitsExpired.increment();
    return null;
  }
}
