package io.hotrank.cache;

import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Loads a value from an ordered list of remote tiers (for example Redis, then the database) on a
 * local miss, with two protections for the tiers behind:
 *
 * <ul>
 *   <li><b>Single flight</b> ({@link SingleFlight}). Concurrent loads of one key share the load in
 *       progress: a hundred readers missing the same key cost the tiers one lookup, not a hundred.
 *       The callers that join wait for the first one's answer, or its exception.
 *   <li><b>Memory of misses.</b> A load that finds the key in no tier is remembered for {@code
 *       missMemory}; until then {@link #missedRecently} says so, and callers answer "absent"
 *       without asking the tiers again.
 * </ul>
 *
 * A tier that throws is reported to the {@link FailureListener} and the next tier is asked: one
 * failing layer costs freshness, not the answer. Keys must have proper {@code equals}/{@code
 * hashCode}. Thread-safe.
 *
 * <p>Why by hand rather than Caffeine's {@code AsyncLoadingCache}: the local tier of a board is not
 * a cache with eviction but the newest version, replaced only by a newer one, and a miss must stay
 * a cheap "absent" rather than a cached empty value that a newer version has to evict.
 *
 * @param <K> the key
 * @param <V> the loaded value
 */
public final class TieredLoader<K, V> {

  /** One remote tier: its name (for metrics and logs) and how to fetch a key from it. */
  public record Tier<K, V>(String name, Function<K, Optional<V>> fetch) {}

  /** A value and the tier that supplied it. */
  public record Loaded<V>(V value, String tier) {}

  /** Told when a tier fails; the load goes on with the next tier. */
  @FunctionalInterface
  public interface FailureListener<K> {
    void tierFailed(K key, String tier, RuntimeException failure);
  }

  private final List<Tier<K, V>> tiers;
  private final long missMemoryNanos;
  private final Ticker ticker;
  private final FailureListener<K> failures;
  private final SingleFlight<K, Optional<Loaded<V>>> flights = new SingleFlight<>();
  private final ConcurrentHashMap<K, Long> missedAt = new ConcurrentHashMap<>();

  /**
   * @param tiers asked in order until one has the key
   * @param missMemory how long a key found nowhere is remembered as absent; zero remembers nothing
   */
  public TieredLoader(
      List<Tier<K, V>> tiers, Duration missMemory, Ticker ticker, FailureListener<K> failures) {
    if (tiers.isEmpty()) {
      throw new IllegalArgumentException("a tiered loader needs at least one tier");
    }
    this.tiers = List.copyOf(tiers);
    this.missMemoryNanos = missMemory.toNanos();
    this.ticker = ticker;
    this.failures = failures;
  }

  /**
   * Whether a load of this key found nothing within the last {@code missMemory}. Allocates nothing.
   */
  public boolean missedRecently(K key) {
    Long at = missedAt.get(key);
    return at != null && ticker.read() - at < missMemoryNanos;
  }

  /**
   * Loads a key from the first tier that has it, sharing a load in progress for the same key.
   *
   * @return the value and its tier, or empty when no tier that answered has the key
   * @throws RuntimeException only if the code around the tiers fails (a tier's own failure is
   *     reported and skipped); joined callers get the same exception
   */
  public Optional<Loaded<V>> load(K key) {
    return flights.load(
        key,
        () -> {
          Optional<Loaded<V>> found = fetch(key);
          if (found.isEmpty() && missMemoryNanos > 0) {
            missedAt.put(key, ticker.read());
          } else {
            missedAt.remove(key);
          }
          return found;
        });
  }

  /** Forgets that a key was missed, for example when it has just been created. */
  public void forgetMiss(K key) {
    missedAt.remove(key);
  }

  private Optional<Loaded<V>> fetch(K key) {
    for (Tier<K, V> tier : tiers) {
      Optional<V> value;
      try {
        value = tier.fetch().apply(key);
      } catch (RuntimeException e) {
        failures.tierFailed(key, tier.name(), e);
        continue;
      }
      if (value.isPresent()) {
        return Optional.of(new Loaded<>(value.get(), tier.name()));
      }
    }
    return Optional.empty();
  }
}
