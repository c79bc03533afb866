package io.hotrank.task;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Where a run's end leaves its task: the next fire time from the schedule, a retry with doubling
 * backoff, the cycle kept for a run cancelled by shutdown, the fire times a {@code skip} policy
 * passes over. Arithmetic on the task's schedule and the database's time only: no I/O, no clock.
 */
final class NextRun {

  /** The outcome of a claim that passed over missed fire times instead of running. */
  static final String SKIPPED = "skipped";

  /** Longest retry delay, however many retries double it. */
  private static final long MAX_BACKOFF_MS = Duration.ofHours(1).toMillis();

  private NextRun() {}

  /** How long a task whose schedule this instance cannot evaluate waits before it is due again. */
  private static final long UNSCHEDULABLE_RETRY_MS = Duration.ofMinutes(1).toMillis();

  /**
   * How a run's end moves its task: see {@link Completion} for each field.
   *
   * @param attempt the task's attempt afterwards
   */
  private record Move(
      @Nullable Long nextTime,
      @Nullable Long retryDelayMs,
      @Nullable Long cycleTime,
      boolean retrigger,
      int attempt) {}

  /**
   * How a run's end moves its task on. A schedule this instance cannot evaluate (a zone its JDK
   * lacks, say) keeps the run's outcome, adds why, and makes the task due again in a minute, for an
   * instance that can: it is neither shelved for the cluster nor claimed again at every poll.
   */
  static Completion completion(
      Claim claim, String outcome, @Nullable String error, long now, String instance) {
    Move move;
    String why = error;
    try {
      move = move(claim, outcome, now);
    } catch (java.time.DateTimeException | IllegalArgumentException | ArithmeticException e) {
      why = (error == null ? "" : error + "; ") + "no next fire time on " + instance + ": " + e;
      move = new Move(null, UNSCHEDULABLE_RETRY_MS, 0L, false, 0);
    }
    return new Completion(
        claim.task.name(),
        claim.fence,
        instance,
        outcome,
        claim.attempt(),
        move.nextTime(),
        move.retryDelayMs(),
        move.cycleTime(),
        move.retrigger(),
        move.attempt(),
        outcome.equals("succeeded"),
        outcome.equals("failed") || outcome.equals("timed-out"),
        why);
  }

  private static Move move(Claim claim, String outcome, long now) {
    TaskRow task = claim.task;
    if (outcome.equals(SKIPPED)) {
      // Claimed to pass over missed fire times: on to the first after the claim, as its history
      // row says, even if that one has passed meanwhile (it then runs).
      return new Move(
          task.schedule().firstAfter(task.nextTime(), claim.startedAt), null, 0L, false, 0);
    }
    boolean cancelled = outcome.equals("cancelled");
    if (claim.manual()) {
      // A run asked for leaves the schedule and the scheduled cycle as they are; cancelled (by a
      // shutdown), it is asked for again.
      return new Move(null, null, null, cancelled, task.attempt());
    }
    if (cancelled) {
      // Stopped by shutdown: due again at once, for another instance, same cycle and attempt.
      return new Move(null, 0L, claim.fireTime, false, claim.attempt());
    }
    long cycle = nextCycle(task, claim.fireTime, claim.startedAt, now);
    boolean failed = outcome.equals("failed") || outcome.equals("timed-out");
    if (failed && claim.attempt() < task.maxRetries()) {
      long backoff =
          Math.min(MAX_BACKOFF_MS, task.retryBackoffMs() << Math.min(claim.attempt(), 20));
      if (backoff >= 0 && now + backoff < cycle) {
        return new Move(null, backoff, claim.fireTime, false, claim.attempt() + 1);
      }
    }
    return new Move(cycle, null, 0L, false, 0);
  }

  /**
   * The next fire time after a scheduled run: the one after its fire time, or after its start when
   * fire times passed before it started (the run covers them). When that too has passed (the run
   * outlasted it), {@code skip} goes on to the next in the future and {@code fire-once} makes the
   * task due now, once.
   */
  static long nextCycle(TaskRow task, long fireTime, long startedAt, long now) {
    Schedule schedule = task.schedule();
    long next = schedule.firstAfter(fireTime, Math.max(fireTime, startedAt));
    if (next > now) {
      return next;
    }
    return task.misfire() == Misfire.SKIP ? schedule.firstAfter(fireTime, now) : next;
  }

  /** Fire times a due task's {@code skip} policy passes over, and the one it goes on to. */
  record Missed(int count, long next) {
    String describe() {
      return count + " fire time(s) missed; next at " + Instant.ofEpochMilli(next);
    }
  }

  /**
   * Under the {@code skip} policy, the fire times a due task missed beyond its first (the one after
   * it has passed too, at {@code now}), and the first after {@code now}; null when none.
   */
  static @Nullable Missed missed(TaskRow task, long now) {
    if (task.misfire() != Misfire.SKIP || task.cycleTime() != 0) {
      return null;
    }
    Schedule schedule = task.schedule();
    if (schedule.next(task.nextTime()) > now) {
      return null;
    }
    int count = 0;
    for (long at = task.nextTime(); at <= now && count < 10_000; at = schedule.next(at)) {
      count++;
    }
    return new Missed(count, schedule.firstAfter(task.nextTime(), now));
  }
}
