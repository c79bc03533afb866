package io.hotrank.task;

import io.hotrank.job.StoreClock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Due tasks claimed one by one, by compare-and-set on the version seen: a page several times the
 * slots, which instances polling together try in orders of their own, so that they mostly claim
 * different rows instead of racing for the same ones (a lost claim costs a statement). Tasks asked
 * for and runs to take over come first in the page, and stay first.
 */
final class OneByOnePolling implements PollStrategy {

  private final TaskStore store;
  private final TaskProperties properties;
  private final TaskClaimer claimer;
  private final StoreClock dbClock;

  OneByOnePolling(
      TaskStore store, TaskProperties properties, TaskClaimer claimer, StoreClock dbClock) {
    this.store = store;
    this.properties = properties;
    this.claimer = claimer;
    this.dbClock = dbClock;
  }

  @Override
  public Polled poll(List<String> jobs, long interval, boolean backlog) {
    int limit = Math.max(32, 8 * properties.maxConcurrent());
    TaskStore.Poll poll =
        store.poll(jobs, properties.heartbeatTimeout().toMillis(), interval, limit, true);
    long now = PollStrategy.timeOf(poll, dbClock);
    List<TaskRow> rows = new ArrayList<>(poll.rows());
    int urgent = 0;
    while (urgent < rows.size() && (rows.get(urgent).triggered() || rows.get(urgent).running())) {
      urgent++;
    }
    Collections.shuffle(rows.subList(urgent, rows.size()), ThreadLocalRandom.current());
    TaskClaimer.Page page = claimer.claimEach(rows, now);
    boolean more = page.due() > 0 && poll.rows().size() == limit;
    if (page.full()) {
      return new Polled(TaskPoller.jitter(interval), true); // a finishing run wakes the poller
    }
    // 0: more beyond the page
    return new Polled(more ? 0 : TaskPoller.sleepBefore(page.earliest(), now, interval), more);
  }
}
