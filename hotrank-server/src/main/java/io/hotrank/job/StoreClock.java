package io.hotrank.job;

import io.hotrank.lock.LeaseStore;
import io.hotrank.time.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's clock as seen from this instance: the store's time at the last reading, carried forward
 * on the monotonic {@link Ticker}. Where several instances must agree on time they take it from
 * here, never from their own clocks: jobs fire on a lease store's clock, so that every instance
 * names a cycle by the same fire time whatever its own clock says (a cycle is keyed by its fire
 * time, and an instance whose clock is minutes off would otherwise run cycles under names no other
 * instance uses); the task platform computes next fire times on the database's.
 *
 * <p>The ticker is read after the store's answer came, so the estimate lags the store by up to a
 * round trip, never leads it: a fire time judged not yet passed is then at worst acted on a few
 * milliseconds late, never early. Between readings it drifts only by the two clocks' rates (parts
 * per million), or by a step of the store's clock, which the callers bound by reading again ({@link
 * #measure} every few seconds, {@link #readIfOlderThan}). Until a first reading succeeds, the
 * injected wall clock read at construction stands in for the store's, carried forward on the ticker
 * the same way (so the estimate moves even where the wall clock is a test's frozen one); the wall
 * clock serves otherwise only to tell the operator how far off this instance's clock is.
 *
 * <p>Thread-safe: a reading is one immutable pair, replaced whole.
 */
public final class StoreClock {

  private static final Logger log = LoggerFactory.getLogger(StoreClock.class);

  /** An offset this large is worth telling the operator about. */
  private static final Duration NOTABLE = Duration.ofSeconds(1);

  /**
   * The store's time in epoch milliseconds and the ticker just after it came; provisional when it
   * is this instance's own clock, before any reading of the store succeeded.
   */
  private record Reading(long storeMillis, long nanos, boolean provisional) {}

  private final String store;
  private final LongSupplier storeMillis;
  private final Clock clock;
  private final Ticker ticker;
  private volatile Reading reading;

  /** This instance's clock's offset from the store's at the last {@link #measure}. */
  private volatile long offsetMillis;

  /**
   * @param store the store's name, as logged (for example {@code jdbc})
   * @param storeMillis reads the store's time in epoch milliseconds, one round trip; may throw
   * @param clock this instance's wall clock, the provisional estimate until a first reading
   */
  public StoreClock(String store, LongSupplier storeMillis, Clock clock, Ticker ticker) {
    this.store = store;
    this.storeMillis = storeMillis;
    this.clock = clock;
    this.ticker = ticker;
    this.reading = new Reading(clock.millis(), ticker.read(), true);
  }

  /** The clock of a lease store. */
  static StoreClock of(LeaseStore store, Clock clock, Ticker ticker) {
    return new StoreClock(store.kind(), store::nowMillis, clock, ticker);
  }

  /** Now, by the store's clock (by this instance's until a first reading succeeded). */
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  /** Now in epoch milliseconds, by the store's clock (as {@link #instant}). */
  public long millis() {
    Reading last = reading;
    return last.storeMillis() + TimeUnit.NANOSECONDS.toMillis(ticker.read() - last.nanos());
  }

  /**
   * Reads the store's time now, one round trip, and keeps it as the latest reading.
   *
   * @return the store's time read
   * @throws RuntimeException whatever the store threw (the last reading is kept)
   */
  public long read() {
    return observed(storeMillis.getAsLong());
  }

  /**
   * Keeps the store's time that a statement of the caller's just returned as the latest reading,
   * sparing a round trip.
   *
   * @return {@code storeMillis}
   */
  public long observed(long storeMillis) {
    reading = new Reading(storeMillis, ticker.read(), false);
    return storeMillis;
  }

  /**
   * Reads the store's time afresh when the last reading is older than {@code age} (or there is none
   * but the provisional one).
   *
   * @throws RuntimeException whatever the store threw (the last reading is kept)
   */
  public void readIfOlderThan(Duration age) {
    Reading last = reading;
    if (last.provisional() || ticker.read() - last.nanos() > age.toNanos()) {
      read();
    }
  }

  /**
   * Reads the store's time again, keeping the fastest of three round trips (the first may open the
   * connection), and warns when this instance's clock is a second or more off the store's. Keeps
   * the last reading when the store fails.
   */
  public void measure() {
    try {
      Reading fastest = null;
      long fastestNanos = Long.MAX_VALUE;
      for (int i = 0; i < 3; i++) {
        long before = ticker.read();
        long storeNow = storeMillis.getAsLong();
        long after = ticker.read();
        if (after - before < fastestNanos) {
          fastestNanos = after - before;
          fastest = new Reading(storeNow, after, false);
        }
      }
      boolean first = reading.provisional();
      reading = fastest;
      long offset = millis() - clock.millis();
      boolean notable = first || Math.abs(offset - offsetMillis) >= NOTABLE.toMillis();
      offsetMillis = offset;
      if (notable && Math.abs(offset) >= NOTABLE.toMillis()) {
        log.warn(
            "This instance's clock is {} ms {} {}'s; jobs on {} leases fire on {}'s clock",
            Math.abs(offset),
            offset > 0 ? "behind" : "ahead of",
            store,
            store,
            store);
      }
    } catch (RuntimeException e) {
      log.debug("Could not read {}'s clock ({}); keeping the last reading", store, e.toString());
    }
  }
}
