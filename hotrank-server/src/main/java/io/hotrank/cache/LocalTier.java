package io.hotrank.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;

/**
 * The local tier of a {@link TieredCache}: a bounded Caffeine cache (W-TinyLFU) and, beside it, a
 * small map of pinned keys out of reach of eviction. Each entry is a value, an absence, or a floor;
 * an entry is replaced only by one of the same or a higher version. Thread-safe.
 *
 * @param <K> the cache key
 * @param <V> the cached value
 */
final class LocalTier<K, V> {

  /**
   * A local entry: a value, an absence, or a floor (an invalidation marker, read as a miss).
   *
   * @param freshUntil ticker nanos after which a read refreshes the entry in the background
   * @param expiresAt ticker nanos after which the entry is gone
   */
  record Entry<V>(
      long version, @Nullable V value, boolean floor, long freshUntil, long expiresAt) {}

  private final Duration fresh;
  private final Duration ttl;
  private final Duration negativeTtl;
  private final Jitter jitter;
  private final Ticker ticker;
  private final Cache<K, Entry<V>> bounded;
  private final ConcurrentMap<K, Entry<V>> pinned = new ConcurrentHashMap<>();
  private final ConcurrentMap<K, Long> pinnedUntil = new ConcurrentHashMap<>();

  /**
   * @param entries how many entries the bounded cache holds at most (pinned ones besides)
   * @param fresh how long a value is served before one read refreshes it
   * @param ttl how long a value or floor is kept at most, fresh or not
   * @param negativeTtl how long an absence is kept
   */
  LocalTier(
      long entries,
      Duration fresh,
      Duration ttl,
      Duration negativeTtl,
      Jitter jitter,
      Ticker ticker) {
    this.fresh = fresh;
    this.ttl = ttl;
    this.negativeTtl = negativeTtl;
    this.jitter = jitter;
    this.ticker = ticker;
    this.bounded =
        Caffeine.newBuilder()
            .maximumSize(entries)
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
  }

  /** The key's entry, pinned or not; null if none. */
  @Nullable Entry<V> lookup(K key) {
    Entry<V> held = pinned.get(key);
    return held != null ? held : bounded.getIfPresent(key);
  }

  /**
   * Installs an entry unless a newer one is held. Choosing the map (pinned or bounded) and writing
   * into it is one step per key, under {@code pinnedUntil}'s lock of the key, as pinning and
   * unpinning are: an entry can never land in the map the key just left, where it would shadow or
   * be shadowed by later writes.
   */
  void put(K key, Entry<V> entry) {
    pinnedUntil.compute(
        key,
        (k, until) -> {
          (until != null ? pinned : bounded.asMap()).merge(k, entry, LocalTier::newer);
          return until;
        });
  }

  /** Installs what a tier answered of the key, unless a newer entry is held. */
  void put(K key, Versioned<V> value) {
    put(key, entry(value));
  }

  /** Installs a floor of {@code version}, unless a newer entry is held. */
  void putFloor(K key, long version) {
    long now = ticker.read();
    put(key, new Entry<>(version, null, true, now, now + ttl.toNanos()));
  }

  /** Whether this instance holds a readable value or absence of the key. */
  boolean holdsReadable(K key) {
    Entry<V> held = lookup(key);
    return held != null && !held.floor();
  }

  /**
   * Whether a value Redis holds is older than the floor this instance holds of the key: it knows a
   * newer version exists (its invalidation reached this instance but not, or not yet, Redis).
   */
  boolean olderThanFloor(K key, Versioned<V> value) {
    Entry<V> held = lookup(key);
    return held != null && held.floor() && held.version() > value.version();
  }

  /** The version of the floor this instance holds of the key, else 0. */
  long floor(K key) {
    Entry<V> held = lookup(key);
    return held != null && held.floor() ? held.version() : 0;
  }

  /** Whether this instance knows the key exists: it holds a floor of a created version. */
  boolean knownToExist(K key) {
    Entry<V> held = lookup(key);
    return held != null && held.floor() && held.version() > 0;
  }

  /** Drops every entry, pinned ones included (their pins stay). */
  void clear() {
    bounded.invalidateAll();
    pinned.clear();
  }

  /**
   * Keeps the key in the pinned map until {@code until} (ticker nanos), out of reach of eviction; a
   * later pin extends it.
   */
  void pin(K key, long until) {
    pinnedUntil.compute(
        key,
        (k, pinnedTo) -> {
          Entry<V> held = bounded.asMap().remove(k);
          if (held != null) {
            pinned.merge(k, held, LocalTier::newer);
          }
          return pinnedTo == null ? until : Math.max(pinnedTo, until);
        });
  }

  /** Ends the pins whose time is over; their entries go back to the bounded cache. */
  void unpinExpired() {
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
              bounded.asMap().merge(k, held, LocalTier::newer);
            }
            return null;
          });
    }
  }

  /** The entry to keep of two: the higher version; at equal versions, the later one. */
  private static <V> Entry<V> newer(Entry<V> held, Entry<V> offered) {
    return offered.version() >= held.version() ? offered : held;
  }

  private Entry<V> entry(Versioned<V> value) {
    long now = ticker.read();
    if (value.value() == null) {
      long until = now + jitter.apply(negativeTtl).toNanos();
      return new Entry<>(value.version(), null, false, until, until);
    }
    return new Entry<>(
        value.version(),
        value.value(),
        false,
        now + fresh.toNanos(),
        now + jitter.apply(ttl).toNanos());
  }
}
