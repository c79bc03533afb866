package io.hotrank.task;

import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * The poller thread ({@code task-poll}): polls through its {@link PollStrategy} while slots are
 * free, then sleeps until the earliest next fire time or the poll interval, with jitter, and wakes
 * at once when a task is triggered here or a worker frees a slot. A failing database is logged
 * once, when it starts failing and when it answers again.
 */
final class TaskPoller {

  /** Logged as the engine, the category operators already set levels for. */
  private static final Logger log = LoggerFactory.getLogger(TaskEngine.class);

  /** How long stopping waits for a poll in progress. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(12);

  private final TaskProperties properties;
  private final Ticker ticker;
  private final ActiveRuns active;
  private final PollStrategy strategy;
  private final List<String> jobs;
  private final Object wake = new Object();
  private volatile boolean polling;
  private boolean wakeUp;
  private @Nullable Thread thread;

  /** Whether the last poll failed (poller thread only): warned once, not at every poll. */
  private boolean pollFailing;

  /** Whether the last poll left due tasks unclaimed for want of a slot (poller thread only). */
  private boolean backlog;

  /** Ticker reading when the poller last polled (poller thread only). */
  private long polledNanos;

  /**
   * @param jobs the jobs whose tasks this instance runs
   */
  TaskPoller(
      TaskProperties properties,
      Ticker ticker,
      ActiveRuns active,
      PollStrategy strategy,
      List<String> jobs) {
    this.properties = properties;
    this.ticker = ticker;
    this.active = active;
    this.strategy = strategy;
    this.jobs = List.copyOf(jobs);
  }

  void start() {
    polling = true;
    thread = Thread.ofPlatform().name("task-poll").start(this::pollLoop);
  }

  /** No new claims: stops the poller and waits (bounded) for a poll in progress. */
  void stop() {
    polling = false;
    wake();
    Thread poller = thread;
    if (poller != null) {
      try {
        poller.join(STOP_WAIT);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Wakes the poller now (a task was triggered here, or a slot freed). */
  void wake() {
    synchronized (wake) {
      wakeUp = true;
      wake.notifyAll();
    }
  }

  private void pollLoop() {
    while (polling) {
      long sleep = properties.pollInterval().toMillis();
      try {
        sleep = pollOnce();
        if (pollFailing) {
          pollFailing = false;
          log.info("Task platform: the database answers again");
        }
      } catch (DataAccessException e) {
        if (!pollFailing) {
          pollFailing = true;
          log.warn("Task platform: polling failed, retrying every {}: {}", sleep, e.toString());
        }
      } catch (RuntimeException | Error e) {
        log.error("Task platform: polling failed", e);
      }
      idle(sleep);
    }
  }

  /** Polls once and claims what it can; returns how long to sleep. */
  private long pollOnce() {
    long interval = properties.pollInterval().toMillis();
    strategy.beforePoll();
    int free = active.claimable();
    if (free == 0 || jobs.isEmpty()) {
      return jitter(interval); // woken when a run ends
    }
    if (backlog
        && free < Math.max(1, properties.maxConcurrent() / 2)
        && ticker.read() - polledNanos < TimeUnit.MILLISECONDS.toNanos(interval)) {
      // More was due than the slots could take: claim in batches of half the slots, not one
      // poll per finished run; but poll at least once an interval (a task asked for, a run to
      // take over), however long the runs holding the slots last.
      return jitter(interval);
    }
    polledNanos = ticker.read();
    PollStrategy.Polled polled = strategy.poll(jobs, interval, backlog);
    backlog = polled.backlog();
    return polled.sleepMillis();
  }

  /**
   * Sleeps up to {@code millis} unless woken. One timed wait, not a loop on a clock: a spurious
   * wake-up only polls early, and a test's frozen ticker cannot stall the poller.
   */
  private void idle(long millis) {
    if (millis <= 0) {
      return;
    }
    synchronized (wake) {
      if (!wakeUp && polling) {
        try {
          wake.wait(millis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          polling = false;
        }
      }
      wakeUp = false;
    }
  }

  /**
   * Until the earliest fire time ahead, within the poll interval. Instances waking for the same
   * fire time race on the claim; one wins, the rest sleep on.
   */
  static long sleepBefore(long earliest, long now, long interval) {
    long untilNext = earliest == Long.MAX_VALUE ? interval : earliest - now;
    return untilNext < interval
        ? Math.max(0, untilNext) + ThreadLocalRandom.current().nextLong(5)
        : jitter(interval);
  }

  /** The interval, give or take a tenth, so that instances do not poll in step. */
  static long jitter(long interval) {
    long spread = Math.max(1, interval / 10);
    return interval - spread + ThreadLocalRandom.current().nextLong(2 * spread + 1);
  }
}
