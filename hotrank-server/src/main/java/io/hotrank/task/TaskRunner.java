package io.hotrank.task;

import io.hotrank.job.Job;
import io.hotrank.job.JobCancelledException;
import io.hotrank.job.JobContext;
import io.hotrank.job.StaleFenceException;
import io.hotrank.job.StoreClock;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * Runs claimed tasks and records how each ended: on a worker of a pool of {@code
 * hotrank.task.max-concurrent} threads ({@link #submit}), or on the caller's thread ({@link
 * #execute}). A finished run writes its outcome and moves its task on ({@link NextRun}), only while
 * the task still carries the run's fence, in a transaction it may share with other runs'
 * completions ({@link Completions}); a write that fails is tried again while the claim holds, so
 * that a run that finished is not run again because one write failed.
 */
final class TaskRunner {

  /** Logged as the engine, the category operators already set levels for. */
  private static final Logger log = LoggerFactory.getLogger(TaskEngine.class);

  /** How many times a completion that could not be written is tried again (while still owned). */
  private static final int COMPLETION_ATTEMPTS = 8;

  /**
   * How long a reading of the database's time is extrapolated on the monotonic ticker before a
   * completion reads it again: the estimate drifts only by the two clocks' rates (parts per
   * million), or by a step of the database's clock, which a minute bounds.
   */
  private static final Duration DB_TIME_FRESH = Duration.ofMinutes(1);

  /** How long stopping waits for cancelled runs to end and write their completions. */
  private static final Duration CANCEL_WAIT = Duration.ofSeconds(12);

  /** A claimed task's work on its worker. */
  @FunctionalInterface
  interface Work {
    void run() throws Exception;
  }

  private final TaskStore store;
  private final TaskProperties properties;
  private final String instance;
  private final MeterRegistry meters;
  private final StoreClock dbClock;
  private final ActiveRuns active;
  private final FailureGauges failures;
  private final Map<String, Job> jobs;
  private final BooleanSupplier cancelling;
  private final Runnable freed;
  private final Ticker ticker;

  /** Tasks whose schedule this instance cannot evaluate: logged once each. */
  private final Set<String> setAside = ConcurrentHashMap.newKeySet();

  private final Completions completions;
  private final @Nullable ExecutorService workers;

  /**
   * @param jobs every job a task may name
   * @param cancelling whether runs are to stop at their next safe point (the instance stops)
   * @param freed called when a worker's run ends and frees its slot
   * @param withWorkers whether {@link #submit} may hand runs to workers (polling is on)
   */
  TaskRunner(
      TaskStore store,
      TaskProperties properties,
      String instance,
      MeterRegistry meters,
      StoreClock dbClock,
      ActiveRuns active,
      FailureGauges failures,
      Map<String, Job> jobs,
      BooleanSupplier cancelling,
      Runnable freed,
      boolean withWorkers,
      Ticker ticker) {
    this.ticker = ticker;
    this.store = store;
    this.properties = properties;
    this.instance = instance;
    this.meters = meters;
    this.dbClock = dbClock;
    this.active = active;
    this.failures = failures;
    this.jobs = jobs;
    this.cancelling = cancelling;
    this.freed = freed;
    this.completions = new Completions(store);
    this.workers =
        withWorkers
            ? Executors.newFixedThreadPool(
                properties.maxConcurrent(), Thread.ofPlatform().name("task-", 0).factory())
            : null;
  }

  /**
   * Lets the runs in progress end, cancelled already ({@link #cancelling} true): each ends at its
   * next safe point and writes its completion. Then completions are written by their runs alone.
   */
  void stop() {
    releaseWaiting(0, "the instance is stopping");
    ExecutorService pool = workers;
    if (pool != null) {
      // Runs end at their next safe point and write their completion; interrupting them would
      // fail that write (a connection is not lent to an interrupted thread).
      pool.shutdown();
      try {
        if (!pool.awaitTermination(CANCEL_WAIT.toSeconds(), TimeUnit.SECONDS)) {
          log.warn("Tasks still running 12 s after they were cancelled: {}", active.tasks());
          // Each dropped run would have freed its slot; they were released above.
          active.releaseSlots(pool.shutdownNow().size());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else {
      active.awaitNone(CANCEL_WAIT);
    }
    completions.close(); // runs still finishing write their own
  }

  /**
   * Releases the claims that have waited for a worker for {@code waitedMs} or more without
   * starting: each is written as {@code cancelled}, not started, and due again at once with its
   * fire time, so that an instance with a free worker runs it. Its queued run then does nothing.
   *
   * @return how many were released
   */
  int releaseWaiting(long waitedMs, String why) {
    long now = ticker.read();
    int released = 0;
    for (Claim claim : List.copyOf(active.all())) {
      if (now - claim.claimedNanos >= TimeUnit.MILLISECONDS.toNanos(waitedMs)
          && claim.tryRelease()) {
        released++;
        try {
          finish(claim, "cancelled", "not started: " + why);
        } catch (RuntimeException e) {
          log.warn("Task '{}': its waiting claim was not released: {}", claim.task.name(), e);
        }
      }
    }
    return released;
  }

  /** Marks a task as one this instance cannot schedule: true the first time (log it then). */
  boolean setAside(String task) {
    return setAside.add(task);
  }

  /**
   * Hands a claimed task to a worker, which releases its slot when done.
   *
   * @return false if the pool is stopped: the claim is then completed as cancelled, and the caller
   *     releases the slot
   */
  boolean submit(Claim claim, Work work) {
    TaskRow task = claim.task;
    ExecutorService pool = workers;
    try {
      if (pool == null) {
        throw new RejectedExecutionException("stopped");
      }
      pool.execute(
          () -> {
            try {
              if (!claim.tryStart(ticker.read())) {
                return; // released while it waited (releaseWaiting): written already
              }
              String lost = claim.lost();
              if (lost != null) {
                finish(claim, "cancelled", "not started: " + lost); // refused if taken over
                return;
              }
              long started = ticker.read();
              try {
                work.run();
              } finally {
                active.ran(ticker.read() - started);
              }
            } catch (Exception e) {
              log.debug("Task '{}' failed (recorded)", task.name(), e);
            } finally {
              active.releaseSlot();
              freed.run();
            }
          });
    } catch (RejectedExecutionException stopping) {
      finish(claim, "cancelled", "not started: the instance is stopping");
      return false;
    }
    return true;
  }

  /**
   * A task claimed in a batch, on its worker: completed as {@code skipped} when its {@code skip}
   * policy passes over missed fire times (judged at the claim's own time, as its completion moves
   * the task), else run.
   */
  void runOrSkip(Claim claim) throws Exception {
    NextRun.Missed missed;
    try {
      missed = NextRun.missed(claim.task, claim.startedAt);
    } catch (RuntimeException e) {
      // A schedule this instance cannot evaluate (a zone this JDK lacks, say): recorded as failed,
      // the task is set aside rather than claimed again at every poll.
      if (setAside(claim.task.name())) {
        log.error("Task '{}' cannot be scheduled here; setting it aside", claim.task.name(), e);
      }
      finish(claim, "failed", "cannot be scheduled on " + instance + ": " + e);
      return;
    }
    if (missed == null) {
      execute(claim);
    } else if (finish(claim, NextRun.SKIPPED, missed.describe())) {
      skipped(claim.task, missed);
    }
  }

  /** Counts and logs fire times a {@code skip} policy passed over. */
  void skipped(TaskRow task, NextRun.Missed missed) {
    meters.counter("hotrank.task.misfires", "task", task.name()).increment(missed.count());
    log.info(
        "Task '{}': {} fire time(s) missed since {}, skipped to {} (misfire policy skip)",
        task.name(),
        missed.count(),
        Instant.ofEpochMilli(task.nextTime()),
        Instant.ofEpochMilli(missed.next()));
  }

  /** Runs a claimed task on this thread and records how it ended. */
  @Nullable Object execute(Claim claim) throws Exception {
    claim.tryStart(ticker.read()); // a run on the caller's thread; a worker's has started
    TaskRow task = claim.task;
    Job job = jobs.get(task.job());
    String outcome = "failed";
    String error = null;
    JobContext context =
        JobContext.of(
                task.job(),
                Instant.ofEpochMilli(claim.fireTime),
                claim.manual(),
                task.parameters(),
                cancelling)
            .underLease(claim.fence, claim::cancelled);
    try {
      if (job == null) {
        throw new IllegalStateException("no job '" + task.job() + "' on this instance");
      }
      job.run(context);
      outcome = claim.timedOut() ? "timed-out" : "succeeded";
      return context.result();
    } catch (JobCancelledException e) {
      outcome = claim.timedOut() ? "timed-out" : "cancelled";
      throw e;
    } catch (StaleFenceException e) {
      outcome = "rejected";
      error = e.getMessage();
      throw e;
    } catch (Exception | Error e) {
      outcome = claim.timedOut() ? "timed-out" : "failed";
      error = e.toString();
      throw e;
    } finally {
      finish(claim, outcome, error);
    }
  }

  /**
   * Writes a run's completion, still heartbeating, tried again while the database fails and the
   * claim holds: a run that finished is not run again because one write failed. Then lets go.
   */
  boolean finish(Claim claim, String outcome, @Nullable String error) {
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          return complete(claim, outcome, error);
        } catch (RuntimeException e) { // the database's, or the transaction's that failed to open
          if (attempt >= COMPLETION_ATTEMPTS || claim.lost() != null) {
            // The row keeps this run's claim: once its heartbeat is old, another instance takes
            // it over and runs the fire time again.
            String what = "Task '{}': the outcome '{}' of fence {} could not be written: {}";
            if (e instanceof DataAccessException) {
              log.warn(what, claim.task.name(), outcome, claim.fence, e.toString());
            } else {
              log.warn(what, claim.task.name(), outcome, claim.fence, e.toString(), e); // a bug
            }
            return false;
          }
          Thread.sleep(Math.min(2000, 100L << attempt));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      claim.complete();
      active.remove(claim);
    }
  }

  /** Writes a run's completion once: whether it was written (false: taken over). */
  private boolean complete(Claim claim, String outcome, @Nullable String error)
      throws InterruptedException {
    TaskRow task = claim.task;
    dbClock.readIfOlderThan(DB_TIME_FRESH); // no reading for a while: read it afresh
    Completion completion = NextRun.completion(claim, outcome, error, dbClock.millis(), instance);
    claim.completing();
    // The claim is renewed while the completion waits for its group.
    boolean written = completions.complete(completion, properties.heartbeatTimeout());
    if (!written) {
      meters.counter("hotrank.task.completions.rejected", "task", task.name()).increment();
      log.warn(
          "Task '{}': the outcome '{}' of fence {} was refused: the run had been taken over ({})",
          task.name(),
          outcome,
          claim.fence,
          claim.lost() == null ? "found at completion" : claim.lost());
      return false;
    }
    if (completion.succeeded()) {
      failures.set(task.name(), 0);
    } else if (completion.failed()) {
      int inARow = task.consecutiveFailures() + 1;
      failures.set(task.name(), inARow);
      log.warn(
          "Task '{}' {} ({} in a row{}): {}",
          task.name(),
          outcome,
          inARow,
          completion.attempt() > claim.attempt()
              ? "; retry " + completion.attempt() + " of " + task.maxRetries()
              : "",
          error == null ? "" : error);
    }
    return true;
  }
}
