package io.hotrank.task;

import io.hotrank.job.StoreClock;
import io.hotrank.task.TaskStore.Kind;
import io.hotrank.time.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Due tasks claimed in batches, one for every free slot, and ahead while runs are short ({@link
 * ActiveRuns#claimable}; {@link TaskStore#claimDue}: rows another instance holds locked are passed
 * over). The page holds only tasks asked for and runs to take over, claimed one by one and first,
 * and tasks due within the poll interval, which tell how long to sleep. While a backlog lasts the
 * page, the poll's costly read, is read once per poll interval rather than before every batch.
 */
final class BatchPolling implements PollStrategy {

  /** Logged as the engine, the category operators already set levels for. */
  private static final Logger log = LoggerFactory.getLogger(TaskEngine.class);

  /**
   * A claim taken ahead waits about one short run; one waiting this long (the runs grew long) is
   * released for an instance with a free worker.
   */
  static final long WAITED_TOO_LONG_MS = 1000;

  private final TaskStore store;
  private final TaskProperties properties;
  private final String instance;
  private final Ticker ticker;
  private final StoreClock dbClock;
  private final ActiveRuns active;
  private final TaskClaimer claimer;
  private final TaskRunner runner;

  /** Ticker reading when the page was last read. */
  private long pagedNanos;

  /** Whether the last batch claim failed: warned once, not at every poll. */
  private boolean claimsFailing;

  BatchPolling(
      TaskStore store,
      TaskProperties properties,
      String instance,
      Ticker ticker,
      StoreClock dbClock,
      ActiveRuns active,
      TaskClaimer claimer,
      TaskRunner runner) {
    this.store = store;
    this.properties = properties;
    this.instance = instance;
    this.ticker = ticker;
    this.dbClock = dbClock;
    this.active = active;
    this.claimer = claimer;
    this.runner = runner;
  }

  @Override
  public void beforePoll() {
    runner.releaseWaiting(WAITED_TOO_LONG_MS, "waited " + WAITED_TOO_LONG_MS + " ms for a worker");
  }

  @Override
  public Polled poll(List<String> jobs, long interval, boolean backlog) {
    TaskClaimer.Page page = TaskClaimer.Page.NONE;
    long now = 0;
    boolean paged =
        !backlog || ticker.read() - pagedNanos >= TimeUnit.MILLISECONDS.toNanos(interval);
    if (paged) {
      TaskStore.Poll poll =
          store.poll(
              jobs,
              properties.heartbeatTimeout().toMillis(),
              interval,
              Math.max(16, 2 * properties.maxConcurrent()),
              false);
      pagedNanos = ticker.read();
      now = PollStrategy.timeOf(poll, dbClock);
      page = claimer.claimEach(poll.rows(), now);
    }
    if (page.full() || claimBatch(jobs)) {
      return new Polled(TaskPoller.jitter(interval), true); // a finishing run wakes the poller
    }
    // A backlog that just ended without a look at the page: look now.
    return new Polled(paged ? TaskPoller.sleepBefore(page.earliest(), now, interval) : 0, false);
  }

  /**
   * Claims due tasks for every free slot in one statement and hands each to a worker, which runs
   * it, or, when its {@code skip} policy passes over missed fire times, completes it as {@code
   * skipped} instead.
   *
   * @return whether every free slot was filled, and more tasks may be due (a backlog): no statement
   *     asks whether they are, since the next claim tells, and a backlog's end then costs one claim
   *     that finds nothing rather than every batch a probe
   */
  private boolean claimBatch(List<String> jobs) {
    int want = active.claimable();
    if (want == 0 || !active.takeSlots(want)) {
      return true;
    }
    List<TaskRow> claimed = List.of();
    long sent = ticker.read(); // a claim's age counts from the send, as a renewal's does
    try {
      claimed = store.claimDue(jobs, instance, want);
      if (claimsFailing) {
        claimsFailing = false;
        log.info("Task platform: due tasks are claimed again");
      }
    } catch (RuntimeException e) {
      if (!claimsFailing) {
        claimsFailing = true;
        log.warn("Task platform: due tasks cannot be claimed; trying at every poll", e);
      }
    } finally {
      active.releaseSlots(want - claimed.size());
    }
    // Every claim heartbeats before any starts.
    List<Claim> claims = new ArrayList<>();
    for (TaskRow task : claimed) {
      Claim claim =
          new Claim(task, Kind.SCHEDULED, task.version(), task.fireTime(), task.startedAt(), sent);
      active.add(claim);
      claims.add(claim);
    }
    for (Claim claim : claims) {
      if (!runner.submit(claim, () -> runner.runOrSkip(claim))) {
        active.releaseSlot();
      }
    }
    return claimed.size() == want;
  }
}
