package io.hotrank.core.score;

import java.time.Instant;

/**
 * The order of a formula whose ranking of two items never changes with the reading time (Reddit,
 * exponential decay): a key computed from an item's counters and creation time alone, so that a
 * list sorted by it once stays sorted while time passes and only an item whose counters change
 * needs a new key.
 *
 * <p>For every two items and every instant {@code now} at or after both creations, {@code key(a) >
 * key(b)} implies {@code score(a, now) >= score(b, now)}, and equal scores have equal keys up to
 * floating-point rounding. Implementations are immutable and thread-safe.
 */
public interface RankKey {

  /**
   * The item's key: higher ranks first.
   *
   * @param counts the item's interaction counts
   * @param createdAt when the item was created, at or after 1970-01-01
   */
  double key(Interactions counts, Instant createdAt);

  /**
   * The formula's score at {@code now} of an item with this key, for {@code now} at or after the
   * item's creation.
   */
  double score(double key, Instant now);
}
