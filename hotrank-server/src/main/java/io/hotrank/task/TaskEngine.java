package io.hotrank.task;

import io.hotrank.job.Job;
import io.hotrank.job.JobBusyException;
import io.hotrank.job.JobCancelledException;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobEngine;
import io.hotrank.job.JobProperties;
import io.hotrank.job.StoreClock;
import io.hotrank.lock.InstanceId;
import io.hotrank.task.TaskStore.Kind;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs tasks: a poller thread claims triggered and abandoned tasks one by one, by compare-and-set
 * on the version seen, then due tasks in a batch (passing over rows other instances hold locked),
 * up to {@code hotrank.task.max-concurrent} at once, and hands each to a worker; a heartbeat thread
 * renews the runs in progress and cancels those that timed out or were taken over; a finished run
 * records its outcome and moves its task on, both only while the task still carries the run's
 * fence, in a transaction it may share with other runs' completions. The poller sleeps until the
 * earliest next fire time or the poll interval, with jitter, and wakes at once when a task is
 * triggered here or a worker frees a slot.
 *
 * <p>Instances agree on time because every decision is the database's: the due and stale tests are
 * in the statements, and the next fire times are computed from the database's time (read at each
 * poll and carried forward on the monotonic ticker, a {@link StoreClock}), never from this
 * instance's clock.
 *
 * <p>Stopping: no new claims; running tasks get {@code hotrank.job.shutdown-grace}, then are
 * cancelled; a cancelled run is recorded as such and its task is due again at once, for another
 * instance to run.
 */
@Component
public class TaskEngine implements JobEngine, SmartLifecycle {

  /*
   * This class only coordinates: it starts and stops the parts and answers the job scheduler and
   * the admin API. The parts, each started here in this order and stopped in reverse:
   *   TaskRunner      runs a claim (on a worker or the caller's thread) and writes its completion
   *   TaskClaimer     claims one row by compare-and-set: a page's rows, a run asked for, a takeover
   *   TaskHeartbeats  renews claims, and cancels runs past their timeout or taken over
   *   TaskUpkeep      prunes the history, reads the failure gauges
   *   TaskPoller      the poll loop and its sleeps, over a PollStrategy: OneByOnePolling or
   *                   BatchPolling, one per claim path
   * They share the ActiveRuns (claims in progress and the slots they take) and the database's clock.
   */

  private static final Logger log = LoggerFactory.getLogger(TaskEngine.class);

  static final String NAME = "task";

  /** How long a run asked for waits for a run of the same task in progress. */
  private static final Duration NOW_WAIT = Duration.ofSeconds(15);

  private static final long NOW_POLL_MS = 50;

  private final TaskStore store;
  private final TaskProperties properties;
  private final Duration grace;
  private final String instance;
  private final MeterRegistry meters;
  private final Ticker ticker;
  private final StoreClock dbClock;
  private final ActiveRuns active;
  private final FailureGauges failures;

  private Map<String, Job> runnable = Map.of();
  private Map<String, JobDefinition> declared = Map.of();

  private volatile boolean firing;
  private volatile boolean cancelling;
  private volatile boolean running;
  private volatile @Nullable TaskRunner runner;
  private final boolean exclusive;
  private boolean earlierLifeReleased;
  private volatile @Nullable TaskClaimer claimer;
  private volatile @Nullable TaskPoller poller;
  private @Nullable TaskHeartbeats heartbeats;
  private @Nullable TaskUpkeep upkeep;

  TaskEngine(
      TaskStore store,
      TaskProperties properties,
      JobProperties jobs,
      InstanceId instance,
      MeterRegistry meters,
      Clock clock,
      Ticker ticker) {
    this.store = store;
    this.properties = properties;
    this.grace = jobs.shutdownGrace();
    this.instance = instance.value();
    this.exclusive = instance.exclusive();
    this.meters = meters;
    this.ticker = ticker;
    this.dbClock = new StoreClock("jdbc", store::nowMillis, clock, ticker);
    this.active =
        new ActiveRuns(properties.maxConcurrent(), store.claimsInBatches(), ticker, meters);
    this.failures = new FailureGauges(meters);
    store.beatsTimeout(properties.heartbeatTimeout().dividedBy(2));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void adopt(Map<String, Job> runnable, Map<String, JobDefinition> declared) {
    this.runnable = Map.copyOf(runnable);
    this.declared = Map.copyOf(declared);
  }

  /** Every job a task may name. */
  Set<String> jobs() {
    return runnable.keySet();
  }

  /** Whether a task is declared by a job's settings (and so reconciled at every start). */
  boolean declared(String task) {
    return declared.containsKey(task);
  }

  /** Wakes the poller now (a task was triggered here, or a slot freed). */
  void wake() {
    TaskPoller polling = poller;
    if (polling != null) {
      polling.wake();
    }
  }

  @Override
  public synchronized void start() {
    dbClock.read();
    new TaskReconciler(store, properties, dbClock.millis()).reconcile(declared);
    if (exclusive && !earlierLifeReleased) {
      // Runs this name left behind in an earlier process (it died: the name is exclusive) are
      // taken over at the next poll, not after the heartbeat timeout.
      int left = store.expireRunsOf(instance);
      earlierLifeReleased = true;
      if (left > 0) {
        log.info("{} task runs of this instance's earlier process are taken over now", left);
      }
    }
    TaskRunner runs =
        new TaskRunner(
            store,
            properties,
            instance,
            meters,
            dbClock,
            active,
            failures,
            runnable,
            () -> cancelling,
            this::wake,
            properties.polling(),
            ticker);
    TaskClaimer claims = new TaskClaimer(store, properties, instance, meters, ticker, active, runs);
    runner = runs;
    claimer = claims;
    firing = true;
    cancelling = false;
    running = true;
    heartbeats = new TaskHeartbeats(store, properties, active, meters, ticker);
    heartbeats.start();
    upkeep = new TaskUpkeep(store, properties, failures, ticker);
    upkeep.start();
    if (!properties.polling()) {
      log.info("Task polling is off (hotrank.task.polling=false): tasks run here only on demand");
      return;
    }
    PollStrategy strategy =
        store.claimsInBatches()
            ? new BatchPolling(store, properties, instance, ticker, dbClock, active, claims, runs)
            : new OneByOnePolling(store, properties, claims, dbClock);
    TaskPoller polling =
        new TaskPoller(properties, ticker, active, strategy, List.copyOf(runnable.keySet()));
    poller = polling;
    polling.start();
    log.info(
        "Task platform polling (every {} at most, heartbeat {} / timeout {}, {} at once); tasks"
            + " declared by jobs: {}",
        properties.pollInterval(),
        properties.heartbeatInterval(),
        properties.heartbeatTimeout(),
        properties.maxConcurrent(),
        declared.keySet());
  }

  @Override
  public void stop() {
    firing = false;
    TaskPoller polling = poller;
    if (polling != null) {
      polling.stop();
    }
    active.awaitNone(grace);
    if (!active.isEmpty()) {
      log.warn("Tasks still running after {}; cancelling them: {}", grace, active.tasks());
    }
    cancelling = true;
    TaskRunner runs = runner;
    if (runs != null) {
      runs.stop();
    }
    if (heartbeats != null) {
      heartbeats.stop();
    }
    if (upkeep != null) {
      upkeep.stop();
    }
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Asks for a run of a task now; the poller here wakes to claim it. */
  boolean trigger(String task) {
    boolean found = store.trigger(task);
    if (found) {
      wake();
    }
    return found;
  }

  @Override
  public @Nullable Object runNow(String job) throws Exception {
    long polls = NOW_WAIT.toMillis() / NOW_POLL_MS;
    while (true) {
      TaskRunner runs = runner;
      TaskClaimer claims = claimer;
      if (cancelling || !firing || runs == null || claims == null) {
        throw new JobCancelledException(job);
      }
      TaskRow task =
          store
              .find(job)
              .orElseThrow(
                  () -> new IllegalStateException("the task of job '" + job + "' is gone"));
      if (!task.running()) {
        Claim claim = claims.claim(task, Kind.NOW, dbClock.read());
        if (claim != null) {
          return runs.execute(claim);
        }
      }
      if (--polls <= 0) {
        throw new JobBusyException(job, task.running() ? task.owner() : null);
      }
      Thread.sleep(NOW_POLL_MS);
    }
  }
}
