package io.hotrank.task;

import io.hotrank.job.StoreClock;
import java.util.List;

/**
 * How the poller claims due tasks, one class per claim path: {@link OneByOnePolling} (a page of
 * candidates, each claimed by compare-and-set on its version) where the engine cannot pass over
 * rows locked elsewhere, or its tests ask for it; {@link BatchPolling} (due tasks claimed in
 * batches with {@code FOR UPDATE SKIP LOCKED}) where it can. Called on the poller thread only.
 */
interface PollStrategy {

  /**
   * What a poll left: how long to sleep before the next, unless woken, and whether due tasks were
   * left unclaimed for want of a slot (a backlog).
   */
  record Polled(long sleepMillis, boolean backlog) {}

  /**
   * Before every poll, whether or not a slot is free: gives up claims that waited too long for a
   * worker (a strategy that claims ahead of free workers, {@link BatchPolling}).
   */
  default void beforePoll() {}

  /**
   * Claims what it can and hands each claim to a worker.
   *
   * @param jobs the jobs whose tasks this instance runs
   * @param interval the poll interval in milliseconds
   * @param backlog whether the last poll left a backlog
   */
  Polled poll(List<String> jobs, long interval, boolean backlog);

  /**
   * The database's time a poll read, kept as the clock's latest reading; the clock's estimate if it
   * read no row (an empty poll reads no time).
   */
  static long timeOf(TaskStore.Poll poll, StoreClock dbClock) {
    return poll.rows().isEmpty() ? dbClock.millis() : dbClock.observed(poll.now());
  }
}
