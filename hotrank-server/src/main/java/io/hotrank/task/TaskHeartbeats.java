package io.hotrank.task;

import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * Keeps this instance's claims alive and honest. A heartbeat thread ({@code task-heartbeat}) renews
 * each run due for it, one fenced statement each; a refused renewal means the run was taken over. A
 * deadline thread ({@code task-deadline}), which does no I/O so that a renewal stuck on the
 * database cannot delay it, cancels runs past their timeout and runs whose claim this instance can
 * no longer vouch for.
 */
final class TaskHeartbeats {

  /** Logged as the engine, the category operators already set levels for. */
  private static final Logger log = LoggerFactory.getLogger(TaskEngine.class);

  private final TaskStore store;
  private final TaskProperties properties;
  private final ActiveRuns active;
  private final MeterRegistry meters;
  private final Ticker ticker;
  private @Nullable ScheduledExecutorService heartbeats;
  private @Nullable ScheduledExecutorService deadlines;

  TaskHeartbeats(
      TaskStore store,
      TaskProperties properties,
      ActiveRuns active,
      MeterRegistry meters,
      Ticker ticker) {
    this.store = store;
    this.properties = properties;
    this.active = active;
    this.meters = meters;
    this.ticker = ticker;
  }

  void start() {
    long tick = Math.max(10, Math.min(properties.heartbeatInterval().toMillis() / 2, 500));
    // Renewals do I/O and may block; the deadlines are checked on a thread that never does.
    ScheduledExecutorService beats =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("task-heartbeat").daemon(true).factory());
    beats.scheduleWithFixedDelay(this::renewAll, tick, tick, TimeUnit.MILLISECONDS);
    ScheduledExecutorService checks =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("task-deadline").daemon(true).factory());
    checks.scheduleWithFixedDelay(this::checkDeadlines, tick, tick, TimeUnit.MILLISECONDS);
    this.deadlines = checks;
    this.heartbeats = beats;
  }

  void stop() {
    for (ScheduledExecutorService service : java.util.Arrays.asList(heartbeats, deadlines)) {
      if (service != null) {
        service.shutdownNow();
      }
    }
  }

  /**
   * Cancels runs past their timeout, and runs whose claim this instance cannot vouch for: no
   * renewal written for the heartbeat timeout less one interval (another instance may take the run
   * over at the timeout; the margin lets this one stop first). Does no I/O, so a renewal stuck on
   * the database cannot delay it.
   */
  private void checkDeadlines() {
    long giveUp = properties.heartbeatTimeout().minus(properties.heartbeatInterval()).toNanos();
    for (Claim claim : active.all()) {
      try {
        long nanos = ticker.read();
        TaskRow task = claim.task;
        if (!claim.timedOut()
            && claim.started()
            && nanos - claim.startedNanos() > TimeUnit.MILLISECONDS.toNanos(task.timeoutMs())
            && claim.timeOut()) {
          meters.counter("hotrank.task.timeouts", "task", task.name()).increment();
          log.warn(
              "Task '{}': the run of fire time {} passed its timeout of {} ms; cancelling it",
              task.name(),
              Instant.ofEpochMilli(claim.fireTime),
              task.timeoutMs());
        }
        if (!claim.completed() && nanos - claim.renewedNanos() > giveUp) {
          lose(
              claim,
              "no heartbeat written for "
                  + Duration.ofNanos(nanos - claim.renewedNanos()).toMillis()
                  + " ms");
        }
      } catch (RuntimeException | Error e) {
        log.error("Task deadline check failed", e);
      }
    }
  }

  /** Renews the heartbeat of each run due for it, one statement each. */
  private void renewAll() {
    long interval = properties.heartbeatInterval().toNanos();
    for (Claim claim : active.all()) {
      try {
        if (claim.lost() == null
            && !claim.completed()
            && ticker.read() - claim.renewedNanos() >= interval) {
          renew(claim, ticker.read());
        }
      } catch (RuntimeException | Error e) {
        log.error("Task heartbeat failed", e);
      }
    }
  }

  private void renew(Claim claim, long sent) {
    try {
      if (store.heartbeat(claim.task.name(), claim.fence)) {
        claim.renewed(sent); // counted from the send: the deadline check judges its age
      } else if (!claim.isCompleting() && active.get(claim.task.name()) == claim) {
        lose(claim, "taken over: the task no longer carries fence " + claim.fence);
      } // else the run ended meanwhile, and its completion moved the task on
    } catch (DataAccessException e) {
      log.debug("Task '{}': heartbeat not written: {}", claim.task.name(), e.toString());
    }
  }

  private void lose(Claim claim, String reason) {
    if (claim.lose(reason)) {
      meters.counter("hotrank.task.claims.lost", "task", claim.task.name()).increment();
      log.warn("Task '{}': run of fence {} cancelled: {}", claim.task.name(), claim.fence, reason);
    }
  }
}
