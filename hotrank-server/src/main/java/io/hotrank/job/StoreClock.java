package io.hotrank.job;

import io.hotrank.lock.LeaseStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lease store's clock as seen from this instance: the system clock plus the offset measured
 * against the store. Jobs fire on it, so that every instance names a cycle by the same fire time
 * whatever its own clock says: a cycle is keyed by its fire time, and an instance whose clock is
 * minutes off would otherwise run cycles under names no other instance uses. Thread-safe.
 */
final class StoreClock {

  private static final Logger log = LoggerFactory.getLogger(StoreClock.class);

  /** An offset this large is worth telling the operator about. */
  private static final Duration NOTABLE = Duration.ofSeconds(1);

  private final LeaseStore store;
  private final Clock system = Clock.systemUTC();
  private volatile long offsetMillis;
  private volatile boolean measured;

  StoreClock(LeaseStore store) {
    this.store = store;
  }

  /** Now, by the store's clock (by this instance's until a first measurement succeeded). */
  Instant instant() {
    return system.instant().plusMillis(offsetMillis);
  }

  /**
   * Measures the offset again, from the fastest of three round trips (the first may open the
   * connection); keeps the last offset when the store fails.
   */
  void measure() {
    try {
      long offset = 0;
      long fastest = Long.MAX_VALUE;
      for (int i = 0; i < 3; i++) {
        long before = system.millis();
        long storeNow = store.nowMillis();
        long after = system.millis();
        if (after - before < fastest) {
          fastest = after - before;
          offset = storeNow - (before + after) / 2;
        }
      }
      boolean notable = Math.abs(offset - offsetMillis) >= NOTABLE.toMillis() || !measured;
      offsetMillis = offset;
      measured = true;
      if (notable && Math.abs(offset) >= NOTABLE.toMillis()) {
        log.warn(
            "This instance's clock is {} ms {} {}'s; jobs on {} leases fire on {}'s clock",
            Math.abs(offset),
            offset > 0 ? "behind" : "ahead of",
            store.kind(),
            store.kind(),
            store.kind());
      }
    } catch (RuntimeException e) {
      log.debug(
          "Could not read {}'s clock ({}); keeping the last offset", store.kind(), e.toString());
    }
  }
}
