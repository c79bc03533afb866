package io.hotrank.cache;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.hotrank.redis.RedisReadGuard;
import io.hotrank.redis.RedisRound;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link TieredCache}: got from {@link TieredCache#builder}, each setting named, then
 * {@link #build}. Every part is required but the {@link #absenceFilter} and the {@link #loadLease}.
 * Not thread-safe; a builder builds one cache.
 *
 * @param <K> the key, with proper {@code equals} and {@code hashCode}
 * @param <V> the value, immutable
 */
public final class TieredCacheBuilder<K, V> {

  final String name;
  long localEntries;
  @Nullable Duration fresh;
  @Nullable Duration localTtl;
  @Nullable Duration remoteTtl;
  @Nullable Duration negativeTtl;
  double jitter = -1;
  @Nullable Duration leaseWait;
  @Nullable Duration redisTimeout;
  @Nullable RemoteTier<K, V> remote;
  @Nullable RedisRound round;
  @Nullable Origin<K, V> origin;
  @Nullable AbsenceFilter<K> filter;
  @Nullable LoadLease<K> lease;
  @Nullable RedisReadGuard guard;
  @Nullable Bulkhead bulkhead;
  @Nullable Ticker ticker;
  @Nullable Executor background;
  @Nullable MeterRegistry meters;

  TieredCacheBuilder(String name) {
    this.name = Objects.requireNonNull(name, "name");
  }

  /** How many entries the local cache holds at most (pinned ones besides). */
  public TieredCacheBuilder<K, V> localEntries(long localEntries) {
    this.localEntries = localEntries;
    return this;
  }

  /** How long a local entry is served before one read refreshes it in the background. */
  public TieredCacheBuilder<K, V> fresh(Duration fresh) {
    this.fresh = fresh;
    return this;
  }

  /** How long a local entry is kept at most, fresh or not. */
  public TieredCacheBuilder<K, V> localTtl(Duration localTtl) {
    this.localTtl = localTtl;
    return this;
  }

  /** How long a value lives in Redis. */
  public TieredCacheBuilder<K, V> remoteTtl(Duration remoteTtl) {
    this.remoteTtl = remoteTtl;
    return this;
  }

  /** How long "absent" is remembered, locally and in Redis. */
  public TieredCacheBuilder<K, V> negativeTtl(Duration negativeTtl) {
    this.negativeTtl = negativeTtl;
    return this;
  }

  /** Each time to live is lengthened by a random share of itself up to this (0.1: up to 10 %). */
  public TieredCacheBuilder<K, V> jitter(double jitter) {
    this.jitter = jitter;
    return this;
  }

  /** How long a load that found another instance's lease waits for its result. */
  public TieredCacheBuilder<K, V> leaseWait(Duration leaseWait) {
    this.leaseWait = leaseWait;
    return this;
  }

  /** How long a read waits for Redis before it goes on without it. */
  public TieredCacheBuilder<K, V> redisTimeout(Duration redisTimeout) {
    this.redisTimeout = redisTimeout;
    return this;
  }

  /** The shared tier, and the round its reads (and the filter's) are sent in together. */
  public TieredCacheBuilder<K, V> remote(RemoteTier<K, V> remote, RedisRound round) {
    this.remote = remote;
    this.round = round;
    return this;
  }

  /** Where values come from when no tier holds them. */
  public TieredCacheBuilder<K, V> origin(Origin<K, V> origin) {
    this.origin = origin;
    return this;
  }

  /** Answers keys that certainly do not exist; without one, every miss asks the origin. */
  public TieredCacheBuilder<K, V> absenceFilter(AbsenceFilter<K> filter) {
    this.filter = filter;
    return this;
  }

  /** The cluster-wide lease on a single-key load; without one, each instance loads by itself. */
  public TieredCacheBuilder<K, V> loadLease(LoadLease<K> lease) {
    this.lease = lease;
    return this;
  }

  /** The timeout and circuit breaker every Redis read goes through. */
  public TieredCacheBuilder<K, V> redisGuard(RedisReadGuard guard) {
    this.guard = guard;
    return this;
  }

  /** The bulkhead in front of the origin (shared by the caches of an instance). */
  public TieredCacheBuilder<K, V> originBulkhead(Bulkhead bulkhead) {
    this.bulkhead = bulkhead;
    return this;
  }

  /** The time source of expiries, freshness and lease waits. */
  public TieredCacheBuilder<K, V> ticker(Ticker ticker) {
    this.ticker = ticker;
    return this;
  }

  /** Runs background refreshes and write-backs into Redis. */
  public TieredCacheBuilder<K, V> background(Executor background) {
    this.background = background;
    return this;
  }

  /** Where the cache's counters are registered (tagged {@code cache=<name>}). */
  public TieredCacheBuilder<K, V> meters(MeterRegistry meters) {
    this.meters = meters;
    return this;
  }

  /**
   * The cache.
   *
   * @throws IllegalStateException naming every required part not set and every setting out of range
   */
  public TieredCache<K, V> build() {
    List<String> problems = new ArrayList<>();
    if (localEntries < 1) {
      problems.add("localEntries must be at least 1, got " + localEntries);
    }
    if (jitter < 0 || jitter > 1) {
      problems.add("jitter must be 0 to 1, got " + (jitter < 0 ? "none" : jitter));
    }
    requireDuration("fresh", fresh, problems);
    requireDuration("localTtl", localTtl, problems);
    requireDuration("remoteTtl", remoteTtl, problems);
    requireDuration("negativeTtl", negativeTtl, problems);
    requireDuration("leaseWait", leaseWait, problems);
    requireDuration("redisTimeout", redisTimeout, problems);
    requirePart("remote", remote, problems);
    requirePart("origin", origin, problems);
    requirePart("redisGuard", guard, problems);
    requirePart("originBulkhead", bulkhead, problems);
    requirePart("ticker", ticker, problems);
    requirePart("background", background, problems);
    requirePart("meters", meters, problems);
    if (!problems.isEmpty()) {
      throw new IllegalStateException("Tiered cache '" + name + "': " + problems);
    }
    return new VersionedTieredCache<>(this);
  }

  private static void requireDuration(
      String setting, @Nullable Duration value, List<String> problems) {
    if (value == null || value.isNegative()) {
      problems.add(setting + " must be set and not negative, got " + value);
    }
  }

  private static void requirePart(String part, @Nullable Object value, List<String> problems) {
    if (value == null) {
      problems.add(part + " is not set");
    }
  }
}
