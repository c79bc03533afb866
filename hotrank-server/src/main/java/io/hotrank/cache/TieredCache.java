package io.hotrank.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A read-through cache in three tiers: a bounded local cache (Caffeine, W-TinyLFU), a shared remote
 * tier (Redis) and the origin (the database). Every value carries the origin's version of it, and
 * no tier ever replaces a value by an older version. Protections:
 *
 * <ul>
 *   <li><b>Breakdown.</b> Concurrent misses of a key load it once per instance (single flight); a
 *       single-key load that misses Redis too takes a short cluster-wide lease before asking the
 *       origin, so the cluster asks once. A caller that finds the lease taken polls Redis for the
 *       other instance's result for at most {@code leaseWait}, then asks the origin itself rather
 *       than hang. Local entries expire logically: past {@code fresh}, the stale value is served
 *       while one background load refreshes it.
 *   <li><b>Penetration.</b> Keys the origin does not have are cached as absent ("negative entries",
 *       for {@code negativeTtl}); an {@link AbsenceFilter} (a Bloom filter) answers "certainly
 *       absent" for a key before the origin is asked.
 *   <li><b>Avalanche.</b> Every time to live carries random jitter, and the origin is reached only
 *       through a {@link Bulkhead}: when it is full for longer than its wait, the read is shed with
 *       {@link OriginBusyException} (503 with Retry-After) instead of piling onto the database.
 *   <li><b>Consistency.</b> {@link #invalidate} replaces an entry, locally and in Redis, by a
 *       <i>floor</i>: a marker of the new version that readers treat as a miss and that refuses any
 *       older value a load still in flight may try to write. {@link #clearLocal} drops every local
 *       entry (after a Redis reconnect, when invalidations may have been missed).
 *   <li><b>Hot keys.</b> {@link #pin} keeps a key in a small map beside the bounded cache, out of
 *       reach of eviction, until the pin ends; invalidations and refreshes still apply to it.
 * </ul>
 *
 * Redis calls go through the {@link RedisReadGuard}; a Redis that fails costs freshness, not the
 * answer. Thread-safe.
 *
 * <p>Why not Caffeine's {@code refreshAfterWrite} and {@code AsyncLoadingCache} alone: their loads
 * are per key and know nothing of versions, so an invalidation arriving during a load would be
 * overwritten by the older value; here every write into a tier compares versions.
 *
 * @param <K> the key, with proper {@code equals} and {@code hashCode}
 * @param <V> the value, immutable
 */
public final class TieredCache<K, V> {

  private static final Logger log = LoggerFactory.getLogger(TieredCache.class);

  /** How often a caller waiting on another instance's load looks into Redis. */
  private static final Duration LEASE_POLL = Duration.ofMillis(5);

  /** The tier that answered a read; sent as {@code X-Hotrank-Source}. */
  public enum Source {
    LOCAL("local"),
    REDIS("redis"),
    DB("db");

    private final String header;

    Source(String header) {
      this.header = header;
    }

    public String header() {
      return header;
    }
  }

  /**
   * What a tier holds of a key.
   *
   * @param version the origin's version; 0 for a key the origin never had
   * @param value the value, or null for "absent at this version" (never existed, or deleted)
   */
  public record Versioned<V>(long version, @Nullable V value) {}

  /**
   * A read's answer.
   *
   * @param value the value, or null if the key does not exist
   */
  public record Read<V>(@Nullable V value, Source source) {}

  /** A write into the remote tier. */
  public record Put<K, V>(K key, Versioned<V> entry, Duration ttl) {}

  /** The shared tier (Redis). */
  public interface Remote<K, V> {

    /**
     * The part of a round that reads the keys: it hands {@code into} the keys held with a value or
     * as absent; a key the tier lacks or holds as a floor is left out.
     */
    RedisRound.Part getAll(List<K> keys, Consumer<Map<K, Versioned<V>>> into);

    /**
     * Writes each entry unless the tier holds a higher version of its key (value or floor). One
     * round trip.
     */
    void putAll(List<Put<K, V>> puts);

    /** Replaces the key's entry by a floor of this version, unless it holds a higher version. */
    void invalidate(K key, long version, Duration ttl);
  }

  /** The origin (the database). */
  @FunctionalInterface
  public interface Origin<K, V> {

    /** The keys' current versions, in one query; keys it never had are left out. */
    Map<K, Versioned<V>> loadAll(List<K> keys);
  }

  /** Knows keys that certainly do not exist (a Bloom filter in Redis). */
  @FunctionalInterface
  public interface AbsenceFilter<K> {

    /**
     * The part of a round that finds the keys among these that certainly do not exist (the others
     * may) and hands them to {@code into}.
     */
    RedisRound.Part certainlyAbsent(List<K> keys, Consumer<Set<K>> into);
  }

  /** A cluster-wide lease on loading one key. */
  @FunctionalInterface
  public interface LoadLease<K> {

    /**
     * @param floor the newest version of the key this instance knows of (its floor, else 0): part
     *     of the lease's name, so that a load started after an invalidation never waits on one that
     *     started before it, and read the older version
     * @return what releases the lease, or null if another load holds it
     */
    @Nullable Runnable tryAcquire(K key, long floor);
  }

  /**
   * How the cache behaves.
   *
   * @param name names its metrics ({@code cache} tag) and its Redis calls in logs
   * @param localEntries how many entries the local cache holds at most (pinned ones besides)
   * @param fresh how long a local entry is served before one read refreshes it in the background
   * @param localTtl how long a local entry is kept at most, fresh or not
   * @param remoteTtl how long a value lives in Redis
   * @param negativeTtl how long "absent" is remembered, locally and in Redis
   * @param jitter each time to live is lengthened by a random share of itself up to this (0.1: up
   *     to 10 %)
   * @param leaseWait how long a load that found another instance's lease waits for its result
   * @param redisTimeout how long a read waits for Redis before it goes on without it
   */
  public record Settings(
      String name,
      long localEntries,
      Duration fresh,
      Duration localTtl,
      Duration remoteTtl,
      Duration negativeTtl,
      double jitter,
      Duration leaseWait,
      Duration redisTimeout) {}

  /** A local entry: a value, an absence, or a floor (an invalidation marker, read as a miss). */
  private record Entry<V>(
      long version, @Nullable V value, boolean floor, long freshUntil, long expiresAt) {}

  private final Settings settings;
  private final Remote<K, V> remote;
  private final RedisRound round;
  private final Origin<K, V> origin;
  private final @Nullable AbsenceFilter<K> filter;
  private final @Nullable LoadLease<K> lease;
  private final RedisReadGuard guard;
  private final Bulkhead bulkhead;
  private final Ticker ticker;
  private final Executor background;
  private final Cache<K, Entry<V>> local;
  private final ConcurrentMap<K, Entry<V>> pinned = new ConcurrentHashMap<>();
  private final ConcurrentMap<K, Long> pinnedUntil = new ConcurrentHashMap<>();
  private final SingleFlight<K, Read<V>> flights = new SingleFlight<>();
  private volatile Consumer<K> readListener = key -> {};

  private final Map<Source, Counter> reads = new HashMap<>();
  private final Counter originQueries;
  private final Counter filtered;
  private final Counter shed;
  private final Counter leaseWaitsServed;
  private final Counter leaseWaitsExpired;

  public TieredCache(
      Settings settings,
      Remote<K, V> remote,
      RedisRound round,
      Origin<K, V> origin,
      @Nullable AbsenceFilter<K> filter,
      @Nullable LoadLease<K> lease,
      RedisReadGuard guard,
      Bulkhead bulkhead,
      Ticker ticker,
      Executor background,
      MeterRegistry meters) {
    this.settings = settings;
    this.remote = remote;
    this.round = round;
    this.origin = origin;
    this.filter = filter;
    this.lease = lease;
    this.guard = guard;
    this.bulkhead = bulkhead;
    this.ticker = ticker;
    this.background = background;
    this.local =
        Caffeine.newBuilder()
            .maximumSize(settings.localEntries())
            .ticker(ticker::read)
            .expireAfter(
                new Expiry<K, Entry<V>>() {
                  @Override
                  public long expireAfterCreate(K key, Entry<V> entry, long now) {
                    return Math.max(0, entry.expiresAt() - now);
                  }

                  @Override
                  public long expireAfterUpdate(K key, Entry<V> entry, long now, long current) {
                    return Math.max(0, entry.expiresAt() - now);
                  }

                  @Override
                  public long expireAfterRead(K key, Entry<V> entry, long now, long current) {
                    return current;
                  }
                })
            .build();
    String name = settings.name();
    for (Source source : Source.values()) {
      reads.put(
          source, meters.counter("hotrank.cache.reads", "cache", name, "source", source.header));
    }
    this.originQueries = meters.counter("hotrank.cache.origin.queries", "cache", name);
    this.filtered = meters.counter("hotrank.cache.filtered", "cache", name);
    this.shed = meters.counter("hotrank.cache.shed", "cache", name);
    this.leaseWaitsServed =
        meters.counter("hotrank.cache.lease.waits", "cache", name, "outcome", "served");
    this.leaseWaitsExpired =
        meters.counter("hotrank.cache.lease.waits", "cache", name, "outcome", "expired");
  }

  /** Told of every read of a key, on the reading thread (hot-key counting); must be cheap. */
  public void onRead(Consumer<K> listener) {
    this.readListener = listener;
  }

  /**
   * Reads one key.
   *
   * @throws OriginBusyException if the key had to come from the origin and the bulkhead was full
   */
  public Read<V> get(K key) {
    readListener.accept(key);
    Entry<V> held = lookup(key);
    if (held != null && !held.floor()) {
      if (ticker.read() >= held.freshUntil()) {
        refreshLater(key);
      }
      reads.get(Source.LOCAL).increment();
      return new Read<>(held.value(), Source.LOCAL);
    }
    Read<V> read = loadShared(key);
    reads.get(read.source()).increment();
    return read;
  }

  /**
   * Reads several keys: local hits, then one Redis round trip for the rest (their values and what
   * the filter says of them, together), then one origin query for what Redis lacked. No cluster
   * lease: a batch never waits on one key. What the origin gave is written back into Redis after
   * the answer.
   *
   * @return every key, in the order given, with its answer
   * @throws OriginBusyException if some keys had to come from the origin and the bulkhead was full
   */
  public Map<K, Read<V>> getAll(Collection<K> keys) {
    Batch batch = batch(keys);
    batch.readRedis();
    List<K> rest = batch.unresolved();
    if (!rest.isEmpty()) {
      batch.resolve(askOrigin(() -> origin.loadAll(rest)), rest);
    }
    return batch.answers();
  }

  /**
   * Starts a read of several keys in steps, for a caller that reads several caches' batches in one
   * Redis round trip and one origin query ({@link #getAll} is the one-cache case): the batch looks
   * into the local cache now; {@link Batch#readRedis} reads the rest from Redis, together with
   * other batches; what is left {@link Batch#unresolved} the caller loads through {@link
   * #askOrigin} and hands to {@link Batch#resolve}.
   */
  public Batch batch(Collection<K> keys) {
    return new Batch(keys, true);
  }

  /**
   * Runs an origin query through the bulkhead, counted as this cache's.
   *
   * @throws OriginBusyException if the bulkhead stayed full past its wait
   */
  public <T> T askOrigin(Supplier<T> query) {
    try {
      return bulkhead.executeSupplier(
          () -> {
            originQueries.increment();
            return query.get();
          });
    } catch (BulkheadFullException e) {
      shed.increment();
      throw new OriginBusyException(settings.name());
    }
  }

  /** One read of several keys, in the steps {@link #batch} describes. Not thread-safe. */
  public final class Batch {
    private final List<K> asked = new ArrayList<>();
    private final Map<K, Read<V>> answers = new HashMap<>();
    private final List<K> unresolved = new ArrayList<>();
    private Map<K, Versioned<V>> found = Map.of();
    private Set<K> absent = Set.of();
    private boolean redisUp = true;

    /**
     * @param lookLocally whether to look into the local cache first (a single-key load already did)
     */
    private Batch(Collection<K> keys, boolean lookLocally) {
      Set<K> seen = new HashSet<>();
      for (K key : keys) {
        if (!seen.add(key)) {
          continue;
        }
        asked.add(key);
        Entry<V> held = null;
        if (lookLocally) {
          readListener.accept(key);
          held = lookup(key);
        }
        if (held != null && !held.floor()) {
          if (ticker.read() >= held.freshUntil()) {
            refreshLater(key);
          }
          answers.put(key, new Read<>(held.value(), Source.LOCAL));
        } else {
          unresolved.add(key);
        }
      }
    }

    /**
     * Reads what is not held locally from Redis in one round trip, together with the other batches'
     * reads: the values and, where the cache has a filter, which keys certainly do not exist. If
     * Redis fails, every batch goes on without it.
     */
    public void readRedis(TieredCache<?, ?>.Batch... others) {
      List<RedisRound.Part> parts = new ArrayList<>(redisParts(true, true));
      for (TieredCache<?, ?>.Batch other : others) {
        parts.addAll(other.redisParts(true, true));
      }
      readRedis(parts, others);
    }

    private void readRedis(List<RedisRound.Part> parts, TieredCache<?, ?>.Batch... others) {
      if (parts.isEmpty()) {
        return;
      }
      try {
        guarded("get", () -> round.run(parts));
        redisAnswered();
        for (TieredCache<?, ?>.Batch other : others) {
          other.redisAnswered();
        }
      } catch (RedisUnavailableException e) {
        redisFailed();
        for (TieredCache<?, ?>.Batch other : others) {
          other.redisFailed();
        }
      }
    }

    /** The Redis reads of the unresolved keys: their values, what the filter says of them. */
    private List<RedisRound.Part> redisParts(boolean values, boolean filtered) {
      if (unresolved.isEmpty() || !redisUp) {
        return List.of();
      }
      List<K> keys = List.copyOf(unresolved);
      List<RedisRound.Part> parts = new ArrayList<>(2);
      if (values) {
        parts.add(remote.getAll(keys, answer -> found = answer));
      }
      if (filtered && filter != null) {
        // A key this instance holds a floor of was created: the filter is not asked about it.
        List<K> unknown = keys.stream().filter(key -> !knownToExist(key)).toList();
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
        if (value != null && !olderThanLocalFloor(key, value)) {
          // (a value older than this instance's floor: Redis missed an invalidation it heard)
          putLocal(key, entry(value));
          answers.put(key, new Read<>(value.value(), Source.REDIS));
          unresolved.remove(key);
        } else if (absent.contains(key) && !knownToExist(key)) {
          // (a create this instance heard of while the round was out outranks the filter)
          putLocal(key, entry(new Versioned<>(0, null)));
          answers.put(key, new Read<>(null, Source.REDIS));
          filtered.increment();
          unresolved.remove(key);
        }
      }
      found = Map.of();
      absent = Set.of();
    }

    private void redisFailed() {
      redisUp = false;
      found = Map.of();
      absent = Set.of();
    }

    /** The key's answer so far: null while unresolved. */
    public @Nullable Read<V> answer(K key) {
      return answers.get(key);
    }

    /** The keys neither the local cache nor Redis answered: the origin's to answer. */
    public List<K> unresolved() {
      return List.copyOf(unresolved);
    }

    /**
     * Installs what the origin answered for these unresolved keys (a key it left out does not
     * exist) and writes it back into Redis after the answer, on a background thread.
     */
    public void resolve(Map<K, Versioned<V>> loaded, Collection<K> keys) {
      List<Put<K, V>> puts = install(loaded, keys);
      if (redisUp && !puts.isEmpty()) {
        try {
          background.execute(() -> writeBack(puts));
        } catch (RejectedExecutionException e) {
          log.debug("Cache '{}': write-back skipped, shutting down", settings.name());
        }
      }
    }

    private List<Put<K, V>> install(Map<K, Versioned<V>> loaded, Collection<K> keys) {
      List<Put<K, V>> puts = new ArrayList<>(keys.size());
      for (K key : keys) {
        if (!unresolved.remove(key)) {
          continue;
        }
        Versioned<V> value = loaded.getOrDefault(key, new Versioned<>(0, null));
        Duration ttl =
            jittered(value.value() == null ? settings.negativeTtl() : settings.remoteTtl());
        puts.add(new Put<>(key, value, ttl));
        putLocal(key, entry(value));
        answers.put(key, new Read<>(value.value(), Source.DB));
      }
      return puts;
    }

    /** The answers, in the order asked; a key left unresolved is left out. Counts them as reads. */
    public Map<K, Read<V>> answers() {
      Map<K, Read<V>> ordered = new LinkedHashMap<>();
      for (K key : asked) {
        Read<V> read = answers.get(key);
        if (read != null) {
          ordered.put(key, read);
          reads.get(read.source()).increment();
        }
      }
      return ordered;
    }
  }

  /**
   * Replaces the key's entry by a floor of {@code version} locally, so that this instance reads it
   * anew and never installs an older value of it; what invalidation notices call.
   */
  public void invalidateLocal(K key, long version) {
    long now = ticker.read();
    putLocal(key, new Entry<>(version, null, true, now, now + settings.localTtl().toNanos()));
    // A load in progress may have read the old version: readers from now on start their own.
    flights.forget(key);
  }

  /**
   * Replaces the key's entry by a floor of {@code version} in Redis and locally: what a writer
   * calls after its database write committed, before announcing the version to other instances. A
   * Redis that fails is reported and skipped; its entry then lives until its time to live.
   */
  public void invalidate(K key, long version) {
    invalidateLocal(key, version);
    invalidateRemote(key, version);
  }

  /**
   * Puts a floor of {@code version} into Redis. Not through the read guard: a write must not be
   * skipped because reads are failing, nor count in their breaker.
   *
   * @throws RuntimeException if Redis did not take it (the caller retries)
   */
  public void invalidateRemote(K key, long version) {
    remote.invalidate(key, version, jittered(settings.remoteTtl()));
  }

  /**
   * Writes a value the origin just committed into Redis and locally, unless either holds a higher
   * version: for writers that know the new value (the event folder's counters).
   */
  public void putAll(Map<K, Versioned<V>> values) {
    if (values.isEmpty()) {
      return;
    }
    List<Put<K, V>> puts = new ArrayList<>(values.size());
    values.forEach(
        (key, value) -> {
          puts.add(new Put<>(key, value, jittered(settings.remoteTtl())));
          if (lookup(key) != null) {
            putLocal(key, entry(value));
          }
        });
    remote.putAll(puts);
  }

  /** Drops every local entry, pinned ones included (their pins stay). */
  public void clearLocal() {
    local.invalidateAll();
    pinned.clear();
  }

  /**
   * Keeps the key in this instance's memory until {@code until} (ticker nanos), out of reach of
   * eviction; a later pin extends it.
   */
  public void pin(K key, long until) {
    pinnedUntil.compute(
        key,
        (k, pinnedTo) -> {
          Entry<V> held = local.asMap().remove(k);
          if (held != null) {
            pinned.merge(k, held, TieredCache::newer);
          }
          return pinnedTo == null ? until : Math.max(pinnedTo, until);
        });
  }

  /** Ends the pins whose time is over; their entries go back to the bounded cache. */
  public void unpinExpired() {
    long now = ticker.read();
    for (K key : pinnedUntil.keySet()) {
      pinnedUntil.computeIfPresent(
          key,
          (k, until) -> {
            if (until > now) {
              return until;
            }
            Entry<V> held = pinned.remove(k);
            if (held != null) {
              local.asMap().merge(k, held, TieredCache::newer);
            }
            return null;
          });
    }
  }

  /** Whether this instance holds a readable value or absence of the key, without loading it. */
  public boolean holdsLocally(K key) {
    Entry<V> held = lookup(key);
    return held != null && !held.floor();
  }

  private @Nullable Entry<V> lookup(K key) {
    Entry<V> held = pinned.get(key);
    return held != null ? held : local.getIfPresent(key);
  }

  /**
   * Installs an entry unless a newer one is held. Choosing the map (pinned or bounded) and writing
   * into it is one step per key, under {@code pinnedUntil}'s lock of the key, as pinning and
   * unpinning are: an entry can never land in the map the key just left, where it would shadow or
   * be shadowed by later writes.
   */
  private void putLocal(K key, Entry<V> entry) {
    pinnedUntil.compute(
        key,
        (k, until) -> {
          (until != null ? pinned : local.asMap()).merge(k, entry, TieredCache::newer);
          return until;
        });
  }

  /**
   * Whether a value Redis holds is older than the floor this instance holds of the key: it knows a
   * newer version exists (its invalidation reached this instance but not, or not yet, Redis).
   */
  private boolean olderThanLocalFloor(K key, Versioned<V> value) {
    Entry<V> held = lookup(key);
    return held != null && held.floor() && held.version() > value.version();
  }

  /** The version of the floor this instance holds of the key, else 0. */
  private long localFloor(K key) {
    Entry<V> held = lookup(key);
    return held != null && held.floor() ? held.version() : 0;
  }

  /** Whether this instance knows the key exists: it holds a floor of a created version. */
  private boolean knownToExist(K key) {
    Entry<V> held = lookup(key);
    return held != null && held.floor() && held.version() > 0;
  }

  /** The entry to keep of two: the higher version; at equal versions, the later one. */
  private static <V> Entry<V> newer(Entry<V> held, Entry<V> offered) {
    return offered.version() >= held.version() ? offered : held;
  }

  private Entry<V> entry(Versioned<V> value) {
    long now = ticker.read();
    if (value.value() == null) {
      long until = now + jittered(settings.negativeTtl()).toNanos();
      return new Entry<>(value.version(), null, false, until, until);
    }
    return new Entry<>(
        value.version(),
        value.value(),
        false,
        now + settings.fresh().toNanos(),
        now + jittered(settings.localTtl()).toNanos());
  }

  private Duration jittered(Duration ttl) {
    long millis = ttl.toMillis();
    long extra = (long) (millis * settings.jitter() * ThreadLocalRandom.current().nextDouble());
    return Duration.ofMillis(millis + extra);
  }

  private void refreshLater(K key) {
    if (flights.inFlight(key)) {
      return;
    }
    background.execute(
        () -> {
          try {
            loadShared(key);
          } catch (RuntimeException e) {
            log.debug("Cache '{}': refresh of {} failed ({})", settings.name(), key, e.toString());
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
    Batch batch = new Batch(List.of(key), false);
    batch.readRedis(batch.redisParts(true, false));
    batch.readRedis(batch.redisParts(false, true));
    if (batch.unresolved.isEmpty()) {
      return batch.answers.get(key);
    }
    Runnable release = null;
    if (lease != null && batch.redisUp) {
      try {
        long floor = localFloor(key);
        release =
            guard.read(
                settings.name() + " lease",
                settings.redisTimeout(),
                () -> lease.tryAcquire(key, floor));
        Versioned<V> theirs =
            release == null ? awaitOtherInstance(key) : alreadyLoaded(key, release);
        if (theirs != null) {
          return new Read<>(theirs.value(), Source.REDIS);
        }
      } catch (RedisUnavailableException e) {
        batch.redisUp = false;
      }
    }
    try {
      List<Put<K, V>> puts =
          batch.install(askOrigin(() -> origin.loadAll(List.of(key))), List.of(key));
      if (batch.redisUp) {
        writeBack(puts);
      }
      return batch.answers.get(key);
    } finally {
      if (release != null) {
        try {
          release.run();
        } catch (RuntimeException e) {
          log.debug(
              "Cache '{}': lease release failed ({}); it expires", settings.name(), e.toString());
        }
      }
    }
  }

  /**
   * Runs a Redis call through the read guard, with this cache's timeout.
   *
   * @throws RedisUnavailableException if Redis failed, timed out, or the breaker is open
   */
  private void guarded(String what, Runnable call) {
    guard.read(
        settings.name() + " " + what,
        settings.redisTimeout(),
        () -> {
          call.run();
          return null;
        });
  }

  /** Writes values the origin gave into Redis; a failure costs only a later miss. */
  private void writeBack(List<Put<K, V>> puts) {
    try {
      guarded("put", () -> remote.putAll(puts));
    } catch (RedisUnavailableException e) {
      log.debug("Cache '{}': write-back to Redis failed ({})", settings.name(), e.getMessage());
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
    if (theirs == null || olderThanLocalFloor(key, theirs)) {
      return null;
    }
    putLocal(key, entry(theirs));
    try {
      release.run();
    } catch (RuntimeException e) {
      log.debug("Cache '{}': lease release failed ({}); it expires", settings.name(), e.toString());
    }
    return theirs;
  }

  /**
   * Polls Redis for the value another instance is loading, for at most {@code leaseWait}.
   *
   * @return the value it wrote, or null if none came in time (the caller asks the origin itself)
   */
  private @Nullable Versioned<V> awaitOtherInstance(K key) {
    long deadline = ticker.read() + settings.leaseWait().toNanos();
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
      if (theirs != null && !olderThanLocalFloor(key, theirs)) {
        putLocal(key, entry(theirs));
        leaseWaitsServed.increment();
        return theirs;
      }
    }
    leaseWaitsExpired.increment();
    return null;
  }
}
