package io.hotrank.task;

import io.hotrank.task.TaskStore.Kind;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * Claims tasks one by one, by compare-and-set on the version seen ({@link TaskStore#claim}): the
 * rows of a poll's page, a run asked for through the job scheduler, a takeover of a run whose owner
 * stopped renewing (recorded as abandoned). A claim joins the {@linkplain ActiveRuns active runs}
 * at once, so that it heartbeats from its start.
 */
final class TaskClaimer {

  /** Logged as the engine, the category operators already set levels for. */
  private static final Logger log = LoggerFactory.getLogger(TaskEngine.class);

  /**
   * What a page's claims left: the earliest fire time not yet due, how many were claimable, and
   * whether the slots ran out.
   */
  record Page(long earliest, int due, boolean full) {
    static final Page NONE = new Page(Long.MAX_VALUE, 0, false);
  }

  private final TaskStore store;
  private final TaskProperties properties;
  private final String instance;
  private final MeterRegistry meters;
  private final Ticker ticker;
  private final ActiveRuns active;
  private final TaskRunner runner;

  TaskClaimer(
      TaskStore store,
      TaskProperties properties,
      String instance,
      MeterRegistry meters,
      Ticker ticker,
      ActiveRuns active,
      TaskRunner runner) {
    this.store = store;
    this.properties = properties;
    this.instance = instance;
    this.meters = meters;
    this.ticker = ticker;
    this.active = active;
    this.runner = runner;
  }

  /**
   * Claims a task as {@code kind} at the database's time {@code now}.
   *
   * @return the claim, or null if another instance won
   */
  @Nullable Claim claim(TaskRow task, Kind kind, long now) {
    // A retry or re-run keeps the fire time of its cycle; a takeover, that of the run it takes.
    long fireTime =
        switch (kind) {
          case SCHEDULED -> task.dueFireTime();
          case TAKEOVER -> task.fireTime();
          case TRIGGERED, NOW -> now;
        };
    long timeoutMs = properties.heartbeatTimeout().toMillis();
    OptionalLong fence =
        kind == Kind.TAKEOVER
            ? store.takeOver(task, instance, timeoutMs) // records the abandoned run with it
            : store.claim(task, kind, instance, fireTime, timeoutMs);
    if (fence.isEmpty()) {
      return null; // another instance won
    }
    Claim claim = new Claim(task, kind, fence.getAsLong(), fireTime, now, ticker.read());
    active.add(claim);
    if (kind == Kind.TAKEOVER) {
      meters.counter("hotrank.task.takeovers", "task", task.name()).increment();
      log.warn(
          "Task '{}': took over the run of fire time {} from '{}' (no heartbeat for {} ms);"
              + " fence {} -> {}",
          task.name(),
          Instant.ofEpochMilli(task.fireTime()),
          task.owner(),
          now - task.heartbeat(),
          task.version(),
          claim.fence);
    }
    return claim;
  }

  /** Claims, one by one, each claimable task of a page, while slots are free. */
  Page claimEach(List<TaskRow> rows, long now) {
    long earliest = Long.MAX_VALUE;
    int due = 0;
    for (TaskRow task : rows) {
      Kind kind;
      try {
        kind = kindOf(task, now);
        if (kind == null) {
          earliest = Math.min(earliest, task.nextTime());
          continue;
        }
        due++;
        if (active.holds(task.name())) {
          continue; // ours: a heartbeat that is only late
        }
        if (kind == Kind.SCHEDULED && skipsMissed(task, now)) {
          continue;
        }
      } catch (RuntimeException e) {
        // One bad row (a zone this JDK lacks, say) must not stop the others: logged once.
        if (runner.setAside(task.name())) {
          log.error("Task '{}' cannot be scheduled here; passing over it", task.name(), e);
        }
        continue;
      }
      if (!active.takeSlot()) {
        return new Page(earliest, due, true);
      }
      boolean submitted = false;
      try {
        submitted = claimAndSubmit(task, kind, now);
      } catch (DataAccessException | org.springframework.transaction.TransactionException e) {
        // Its row is locked (or the claim timed out): the others may still be claimable.
        log.debug("Task '{}' not claimed: {}", task.name(), e.toString());
      } finally {
        if (!submitted) {
          active.releaseSlot();
        }
      }
    }
    return new Page(earliest, due, false);
  }

  private boolean claimAndSubmit(TaskRow task, Kind kind, long now) {
    Claim claim = claim(task, kind, now);
    if (claim == null) {
      return false;
    }
    return runner.submit(claim, () -> runner.execute(claim));
  }

  private @Nullable Kind kindOf(TaskRow task, long now) {
    if (task.running()) {
      return task.heartbeat() <= now - properties.heartbeatTimeout().toMillis()
          ? Kind.TAKEOVER
          : null;
    }
    if (task.triggered()) {
      return Kind.TRIGGERED;
    }
    return task.status().equals(TaskRow.WAITING) && !task.paused() && task.nextTime() <= now
        ? Kind.SCHEDULED
        : null;
  }

  /**
   * Under the {@code skip} policy a due task whose following fire time has passed too is moved to
   * its next fire time in the future without running (claimed one by one: before the claim).
   */
  private boolean skipsMissed(TaskRow task, long now) {
    NextRun.Missed missed = NextRun.missed(task, now);
    if (missed == null) {
      return false;
    }
    if (store.skipMissed(task, missed.next(), now, instance, missed.describe())) {
      runner.skipped(task, missed);
    }
    return true;
  }
}
