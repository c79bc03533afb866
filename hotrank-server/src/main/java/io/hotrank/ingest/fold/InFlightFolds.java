package io.hotrank.ingest.fold;

import java.util.HashSet;
import java.util.Set;

/**
 * The fold attempts running on this instance, so that {@code POST /api/v1/admin/events/fold} can
 * wait for those that began before it finished: the scheduled folder may have committed the very
 * events the caller posted and still be telling the listeners (Redis counters, realtime boards)
 * when the caller's own fold finds nothing left to fold. Thread-safe.
 */
public final class InFlightFolds {

  private final Set<Long> running = new HashSet<>(); // guarded by this
  private long started; // guarded by this

  /** Marks a fold attempt as begun; pass what it returns to {@link #end}. */
  public synchronized long begin() {
    long attempt = ++started;
    running.add(attempt);
    return attempt;
  }

  public synchronized void end(long attempt) {
    running.remove(attempt);
    notifyAll();
  }

  /**
   * Waits until every attempt begun before this call has ended, waking at most {@code wakeUps}
   * times (once per attempt that ends, or every {@code waitMillis}): bounded, so that a folder
   * stuck on a slow Redis cannot hold an admin call for ever.
   *
   * @return whether they all ended
   */
  public synchronized boolean awaitBegun(int wakeUps, long waitMillis) throws InterruptedException {
    long upTo = started;
    for (int i = 0; i < wakeUps && anyUpTo(upTo); i++) {
      wait(waitMillis);
    }
    return !anyUpTo(upTo);
  }

  private boolean anyUpTo(long upTo) {
    for (long attempt : running) {
      if (attempt <= upTo) {
        return true;
      }
    }
    return false;
  }
}
