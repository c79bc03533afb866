package io.hotrank.core.score;

import java.time.Duration;
import java.time.Instant;

/**
 * How old an item is at the moment it is scored, in milliseconds, never negative.
 *
 * <p>A value type shared by the age-based formulas so that they agree on clamping and units.
 */
record Age(double millis) {

  private static final double MILLIS_PER_HOUR = 3_600_000.0;

  /**
   * The age of an item created at {@code createdAt} as seen at {@code now}; zero if it was created
   * after {@code now} (clock skew between writers should not produce negative ages).
   */
  static Age between(Instant createdAt, Instant now) {
    Duration elapsed = Duration.between(createdAt, now);
    if (elapsed.isNegative()) {
      return new Age(0.0);
    }
    // Seconds and nanos are combined in double arithmetic rather than via toMillis(), which
    // throws for spans beyond about 292 million years; Instant allows spans far wider than that.
    return new Age(elapsed.getSeconds() * 1_000.0 + elapsed.getNano() / 1_000_000.0);
  }

  double hours() {
    return millis / MILLIS_PER_HOUR;
  }
}
