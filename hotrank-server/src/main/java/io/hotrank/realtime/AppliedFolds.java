package io.hotrank.realtime;

import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Tells this instance's publish jobs that a fold has reached the boards in Redis, so that the job
 * publishing a board here does so at once instead of at its next interval. Folds applied by another
 * instance are not seen here; the interval covers them.
 */
final class AppliedFolds {

  private final Ticker ticker;
  private long count;

  AppliedFolds(Ticker ticker) {
    this.ticker = ticker;
  }

  /** How many folds this instance has applied. */
  synchronized long count() {
    return count;
  }

  synchronized void applied() {
    count++;
    notifyAll();
  }

  /**
   * Waits until a fold is applied after the {@code seen}-th, or {@code timeout} passes.
   *
   * @return the count now
   */
  synchronized long awaitAfter(long seen, Duration timeout) throws InterruptedException {
    long deadline = ticker.read() + timeout.toNanos();
    while (count == seen) {
      long left = deadline - ticker.read();
      if (left <= 0) {
        break;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return count;
  }
}
