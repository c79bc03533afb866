package io.hotrank.task;

import io.hotrank.job.Job;
import io.hotrank.job.JobBusyException;
import io.hotrank.job.JobCancelledException;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobEngine;
import io.hotrank.job.StaleFenceException;
import io.hotrank.lock.InstanceId;
import io.hotrank.storage.SqlDialect;
import io.hotrank.task.TaskStore.Kind;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs tasks: a poller thread claims triggered and abandoned tasks one by one, by compare-and-set
 * on the version seen, then due tasks in a batch (passing over rows other instances hold locked),
 * up to {@code hotrank.task.max-concurrent} at once (a semaphore), and hands each to a worker; a
 * heartbeat thread renews the runs in progress and cancels those that timed out or were taken over;
 * a finished run records its outcome and moves its task on, both only while the task still carries
 * the run's fence, in a transaction it may share with other runs' completions ({@link
 * Completions}). The poller sleeps until the earliest next fire time or the poll interval, with
 * jitter, and wakes at once when a task is triggered here or a worker frees a slot.
 *
 * <p>Instances agree on time because every decision is the database's: the due and stale tests are
 * in the statements, and the next fire times are computed from the database's time (read at each
 * poll and carried forward on the monotonic ticker), never from this instance's clock.
 *
 * <p>Stopping: no new claims; running tasks get {@code hotrank.job.shutdown-grace}, then are
 * cancelled; a cancelled run is recorded as such and its task is due again at once, for another
 * instance to run.
 */
@Component
public class TaskEngine implements JobEngine, SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(TaskEngine.class);

  static final String NAME = "task";

  /** How long a run asked for waits for a run of the same task in progress. */
  private static final Duration NOW_WAIT = Duration.ofSeconds(15);

  private static final long NOW_POLL_MS = 50;

  /** How often the history is pruned. */
  private static final Duration PRUNE_EVERY = Duration.ofMinutes(10);

  /** How often the failure gauges are read from the database. */
  private static final Duration MAINTAIN_EVERY = Duration.ofSeconds(10);

  /** How many times a completion that could not be written is tried again (while still owned). */
  private static final int COMPLETION_ATTEMPTS = 8;

  /**
   * How long a reading of the database's time is extrapolated on the monotonic ticker before a
   * completion reads it again: the estimate drifts only by the two clocks' rates (parts per
   * million), or by a step of the database's clock, which a minute bounds.
   */
  private static final Duration DB_TIME_FRESH = Duration.ofMinutes(1);

  private final TaskStore store;
  private final TaskProperties properties;
  private final Duration grace;
  private final String instance;
  private final MeterRegistry meters;
  private final Ticker ticker;
  private final Semaphore permits;
  private final Map<String, Claim> active = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> failureGauges = new ConcurrentHashMap<>();
  private final java.util.Set<String> broken = ConcurrentHashMap.newKeySet();
  private final Object wake = new Object();

  private Map<String, Job> runnable = Map.of();
  private Map<String, JobDefinition> declared = Map.of();

  /** The database's time at the last reading, and the ticker then. */
  private volatile long dbMillis;

  private volatile long dbNanos;
  private volatile boolean firing;
  private volatile boolean cancelling;
  private volatile boolean running;
  private volatile boolean pollFailing;

  /** Whether the last poll left due tasks unclaimed for want of a slot (poller thread only). */
  private boolean backlog;

  /** Ticker reading when the poller last read a page (poller thread only). */
  private long pagedNanos;

  /** Ticker reading when the poller last polled (poller thread only). */
  private long polledNanos;

  /** Whether the last batch claim failed (poller thread only): warned once, not at every poll. */
  private boolean claimsFailing;

  private boolean wakeUp;
  private @Nullable Thread poller;
  private volatile @Nullable Completions completions;
  private @Nullable ExecutorService workers;
  private @Nullable ScheduledExecutorService heartbeats;
  private @Nullable ScheduledExecutorService deadlines;
  private @Nullable ScheduledExecutorService maintenance;
  private long lastPrune;

  TaskEngine(
      TaskStore store,
      TaskProperties properties,
      io.hotrank.job.JobProperties jobs,
      InstanceId instance,
      MeterRegistry meters,
      Ticker ticker) {
    this.store = store;
    this.properties = properties;
    this.grace = jobs.shutdownGrace();
    this.instance = instance.value();
    this.meters = meters;
    this.ticker = ticker;
    this.permits = new Semaphore(properties.maxConcurrent());
    store.beatsTimeout(properties.heartbeatTimeout().dividedBy(2));
    meters.gauge("hotrank.task.running", active, Map::size);
  }

  /**
   * A task engine outside the service, for tools and benchmarks: on {@code dataSource}, whose
   * tables the service's Flyway migrations have created, running {@code jobs} as given (no log line
   * or timer per run). The caller starts and stops it.
   */
  public static TaskEngine standalone(
      DataSource dataSource,
      TaskProperties properties,
      String instance,
      Duration shutdownGrace,
      List<Job> jobs) {
    TaskEngine engine =
        new TaskEngine(
            new TaskStore(
                new JdbcTemplate(dataSource),
                SqlDialect.detect(dataSource),
                new TransactionTemplate(new DataSourceTransactionManager(dataSource))),
            properties,
            new io.hotrank.job.JobProperties(
                new io.hotrank.job.JobSettings(
                    NAME,
                    io.hotrank.job.JobMode.PER_RUN,
                    "jdbc",
                    Duration.ofSeconds(30),
                    shutdownGrace),
                Map.of()),
            new InstanceId(instance),
            new io.micrometer.core.instrument.simple.SimpleMeterRegistry(),
            Ticker.system());
    Map<String, Job> byName = new java.util.LinkedHashMap<>();
    jobs.forEach(job -> byName.put(job.name(), job));
    engine.adopt(byName, Map.of());
    return engine;
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
  java.util.Set<String> jobs() {
    return runnable.keySet();
  }

  /** Whether a task is declared by a job's settings (and so reconciled at every start). */
  boolean declared(String task) {
    return declared.containsKey(task);
  }

  /**
   * The database's time now, as last read plus the monotonic time since. The ticker is read after
   * the answer came, so the estimate lags the database by up to a round trip, never leads it: a
   * fire time judged not yet passed is then at worst run a few milliseconds late, never skipped
   * early.
   */
  long dbNow() {
    return dbMillis + TimeUnit.NANOSECONDS.toMillis(ticker.read() - dbNanos);
  }

  /** The database's time a poll read, kept as the latest reading; the estimate if it read none. */
  private long timeOf(TaskStore.Poll poll) {
    if (poll.rows().isEmpty()) {
      return dbNow();
    }
    dbTimeWas(poll.now(), ticker.read());
    return poll.now();
  }

  private void dbTimeWas(long millis, long nanos) {
    dbMillis = millis;
    dbNanos = nanos;
  }

  /** Wakes the poller now (a task was triggered here, or a slot freed). */
  void wake() {
    synchronized (wake) {
      wakeUp = true;
      wake.notifyAll();
    }
  }

  // --- lifecycle ---

  @Override
  public synchronized void start() {
    dbTimeWas(store.nowMillis(), ticker.read());
    new TaskReconciler(store, properties, dbNow()).reconcile(declared);
    firing = true;
    cancelling = false;
    running = true;
    completions = new Completions(store);
    long tick = Math.max(10, Math.min(properties.heartbeatInterval().toMillis() / 2, 500));
    // Renewals do I/O and may block; the deadlines are checked on a thread that never does, and
    // the history's pruning and the failure gauges have a thread of their own.
    ScheduledExecutorService beats =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("task-heartbeat").daemon(true).factory());
    beats.scheduleWithFixedDelay(this::renewAll, tick, tick, TimeUnit.MILLISECONDS);
    ScheduledExecutorService deadlines =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("task-deadline").daemon(true).factory());
    deadlines.scheduleWithFixedDelay(this::checkDeadlines, tick, tick, TimeUnit.MILLISECONDS);
    this.deadlines = deadlines;
    ScheduledExecutorService upkeep =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("task-maintenance").daemon(true).factory());
    upkeep.scheduleWithFixedDelay(
        this::maintain, 0, MAINTAIN_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    this.maintenance = upkeep;
    heartbeats = beats;
    if (!properties.polling()) {
      log.info("Task polling is off (hotrank.task.polling=false): tasks run here only on demand");
      return;
    }
    workers =
        Executors.newFixedThreadPool(
            properties.maxConcurrent(), Thread.ofPlatform().name("task-", 0).factory());
    poller = Thread.ofPlatform().name("task-poll").start(this::pollLoop);
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
    wake();
    Thread polling = poller;
    if (polling != null) {
      try {
        polling.join(Duration.ofSeconds(12));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    waitWhileRunning(grace);
    if (!active.isEmpty()) {
      log.warn("Tasks still running after {}; cancelling them: {}", grace, active.keySet());
    }
    cancelling = true;
    ExecutorService pool = workers;
    if (pool != null) {
      // Runs end at their next safe point and write their completion; interrupting them would
      // fail that write (a connection is not lent to an interrupted thread).
      pool.shutdown();
      try {
        if (!pool.awaitTermination(12, TimeUnit.SECONDS)) {
          log.warn("Tasks still running 12 s after they were cancelled: {}", active.keySet());
          pool.shutdownNow();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else {
      waitWhileRunning(Duration.ofSeconds(12));
    }
    Completions group = completions;
    if (group != null) {
      group.close(); // runs still finishing write their own
    }
    for (ScheduledExecutorService service :
        java.util.Arrays.asList(heartbeats, deadlines, maintenance)) {
      if (service != null) {
        service.shutdownNow();
      }
    }
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  private void waitWhileRunning(Duration limit) {
    for (long polls = limit.toMillis() / NOW_POLL_MS; polls > 0 && !active.isEmpty(); polls--) {
      try {
        Thread.sleep(NOW_POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  // --- polling and claiming ---

  private void pollLoop() {
    while (firing) {
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
    int free = permits.availablePermits();
    if (free == 0 || runnable.isEmpty()) {
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
    return store.claimsInBatches() ? pollInBatches(interval) : pollOneByOne(interval);
  }

  /**
   * Due tasks claimed in batches ({@link #claimBatch}). The page holds only tasks asked for and
   * runs to take over, claimed one by one and first, and tasks due within the poll interval, which
   * tell how long to sleep. While a backlog lasts the page, the poll's costly read, is read once
   * per poll interval rather than before every batch.
   */
  private long pollInBatches(long interval) {
    Page page = Page.NONE;
    long now = 0;
    boolean paged =
        !backlog || ticker.read() - pagedNanos >= TimeUnit.MILLISECONDS.toNanos(interval);
    if (paged) {
      TaskStore.Poll poll =
          store.poll(
              List.copyOf(runnable.keySet()),
              properties.heartbeatTimeout().toMillis(),
              interval,
              Math.max(16, 2 * properties.maxConcurrent()),
              false);
      pagedNanos = ticker.read();
      now = timeOf(poll);
      page = claimEach(poll.rows(), now);
    }
    backlog = page.full || claimBatch();
    if (backlog) {
      return jitter(interval); // a finishing run wakes the poller
    }
    // A backlog that just ended without a look at the page: look now.
    return paged ? sleepBefore(page.earliest, now, interval) : 0;
  }

  /**
   * Due tasks claimed one by one, by compare-and-set on the version seen: a page several times the
   * slots, which instances polling together try in orders of their own, so that they mostly claim
   * different rows instead of racing for the same ones (a lost claim costs a statement).
   */
  private long pollOneByOne(long interval) {
    int limit = Math.max(32, 8 * properties.maxConcurrent());
    TaskStore.Poll poll =
        store.poll(
            List.copyOf(runnable.keySet()),
            properties.heartbeatTimeout().toMillis(),
            interval,
            limit,
            true);
    long now = timeOf(poll);
    // Tasks asked for and runs to take over, first in the page, keep going first.
    List<TaskRow> rows = new java.util.ArrayList<>(poll.rows());
    int urgent = 0;
    while (urgent < rows.size() && (rows.get(urgent).triggered() || rows.get(urgent).running())) {
      urgent++;
    }
    java.util.Collections.shuffle(rows.subList(urgent, rows.size()), ThreadLocalRandom.current());
    Page page = claimEach(rows, now);
    boolean more = page.due > 0 && poll.rows().size() == limit;
    backlog = page.full || more;
    if (page.full) {
      return jitter(interval); // a finishing run wakes the poller
    }
    return more ? 0 : sleepBefore(page.earliest, now, interval); // 0: more beyond the page
  }

  /**
   * What a page's claims left: the earliest fire time not yet due, how many were claimable, and
   * whether the slots ran out.
   */
  private record Page(long earliest, int due, boolean full) {
    static final Page NONE = new Page(Long.MAX_VALUE, 0, false);
  }

  /** Claims, one by one, each claimable task of a page, while slots are free. */
  private Page claimEach(List<TaskRow> rows, long now) {
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
        if (active.containsKey(task.name())) {
          continue; // ours: a heartbeat that is only late
        }
        if (kind == Kind.SCHEDULED && skipsMissed(task, now)) {
          continue;
        }
      } catch (RuntimeException e) {
        // One bad row (a zone this JDK lacks, say) must not stop the others: logged once.
        if (broken.add(task.name())) {
          log.error("Task '{}' cannot be scheduled here; passing over it", task.name(), e);
        }
        continue;
      }
      if (!permits.tryAcquire()) {
        return new Page(earliest, due, true);
      }
      boolean submitted = false;
      try {
        submitted = claimAndSubmit(task, kind, now);
      } catch (DataAccessException e) {
        // Its row is locked (or the claim timed out): the others may still be claimable.
        log.debug("Task '{}' not claimed: {}", task.name(), e.toString());
      } finally {
        if (!submitted) {
          permits.release();
        }
      }
    }
    return new Page(earliest, due, false);
  }

  /**
   * Until the earliest fire time ahead, within the poll interval. Instances waking for the same
   * fire time race on the claim; one wins, the rest sleep on.
   */
  private static long sleepBefore(long earliest, long now, long interval) {
    long untilNext = earliest == Long.MAX_VALUE ? interval : earliest - now;
    return untilNext < interval
        ? Math.max(0, untilNext) + ThreadLocalRandom.current().nextLong(5)
        : jitter(interval);
  }

  /** The interval, give or take a tenth, so that instances do not poll in step. */
  private static long jitter(long interval) {
    long spread = Math.max(1, interval / 10);
    return interval - spread + ThreadLocalRandom.current().nextLong(2 * spread + 1);
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
      if (!wakeUp && firing) {
        try {
          wake.wait(millis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          firing = false;
        }
      }
      wakeUp = false;
    }
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
      skipped(task, missed);
    }
    return true;
  }

  private void skipped(TaskRow task, NextRun.Missed missed) {
    meters.counter("hotrank.task.misfires", "task", task.name()).increment(missed.count());
    log.info(
        "Task '{}': {} fire time(s) missed since {}, skipped to {} (misfire policy skip)",
        task.name(),
        missed.count(),
        Instant.ofEpochMilli(task.nextTime()),
        Instant.ofEpochMilli(missed.next()));
  }

  /**
   * Claims due tasks for every free slot in one statement ({@link TaskStore#claimDue}) and hands
   * each to a worker, which runs it, or, when its {@code skip} policy passes over missed fire
   * times, completes it as {@code skipped} instead.
   *
   * @return whether every free slot was filled and more tasks are due (a backlog)
   */
  private boolean claimBatch() {
    int want = permits.availablePermits();
    if (want == 0 || !permits.tryAcquire(want)) {
      return true;
    }
    List<String> jobs = List.copyOf(runnable.keySet());
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
      permits.release(want - claimed.size());
    }
    // Every claim heartbeats before any starts.
    List<Claim> claims = new java.util.ArrayList<>();
    for (TaskRow task : claimed) {
      Claim claim =
          new Claim(task, Kind.SCHEDULED, task.version(), task.fireTime(), task.startedAt(), sent);
      active.put(task.name(), claim);
      claims.add(claim);
    }
    for (Claim claim : claims) {
      if (!submit(claim, () -> runOrSkip(claim))) {
        permits.release();
      }
    }
    return !claimed.isEmpty() && claimed.size() == want && store.anyDue(jobs);
  }

  /**
   * A task claimed in a batch, on its worker: completed as {@code skipped} when its {@code skip}
   * policy passes over missed fire times (judged at the claim's own time, as its completion moves
   * the task), else run.
   */
  private void runOrSkip(Claim claim) throws Exception {
    NextRun.Missed missed;
    try {
      missed = NextRun.missed(claim.task, claim.startedAt);
    } catch (RuntimeException e) {
      // A schedule this instance cannot evaluate (a zone this JDK lacks, say): recorded as failed,
      // the task is set aside rather than claimed again at every poll.
      if (broken.add(claim.task.name())) {
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

  private boolean claimAndSubmit(TaskRow task, Kind kind, long now) {
    Claim claim = claim(task, kind, now);
    if (claim == null) {
      return false;
    }
    return submit(claim, () -> execute(claim));
  }

  /** A claimed task's work on its worker. */
  @FunctionalInterface
  private interface Work {
    void run() throws Exception;
  }

  /**
   * Hands a claimed task to a worker, which releases its slot when done.
   *
   * @return false if the pool is stopped: the claim is then completed as cancelled, and the caller
   *     releases the slot
   */
  private boolean submit(Claim claim, Work work) {
    TaskRow task = claim.task;
    ExecutorService pool = workers;
    try {
      if (pool == null) {
        throw new java.util.concurrent.RejectedExecutionException("stopped");
      }
      pool.execute(
          () -> {
            try {
              work.run();
            } catch (Exception e) {
              log.debug("Task '{}' failed (recorded)", task.name(), e);
            } finally {
              permits.release();
              wake();
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException stopping) {
      finish(claim, "cancelled", "not started: the instance is stopping");
      return false;
    }
    return true;
  }

  private @Nullable Claim claim(TaskRow task, Kind kind, long now) {
    // A retry or re-run keeps the fire time of its cycle; a takeover, that of the run it takes.
    long fireTime =
        switch (kind) {
          case SCHEDULED -> task.dueFireTime();
          case TAKEOVER -> task.fireTime();
          case TRIGGERED, NOW -> now;
        };
    OptionalLong fence =
        store.claim(task, kind, instance, fireTime, properties.heartbeatTimeout().toMillis());
    if (fence.isEmpty()) {
      return null; // another instance won
    }
    Claim claim = new Claim(task, kind, fence.getAsLong(), fireTime, now, ticker.read());
    active.put(task.name(), claim);
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
      try {
        store.recordAbandoned(task, instance);
      } catch (DataAccessException e) {
        log.warn("Task '{}': the abandoned run was not recorded: {}", task.name(), e.toString());
      }
    }
    return claim;
  }

  // --- running ---

  /** Runs a claimed task on this thread and records how it ended. */
  private @Nullable Object execute(Claim claim) throws Exception {
    TaskRow task = claim.task;
    Job job = runnable.get(task.job());
    String outcome = "failed";
    String error = null;
    JobContext context =
        JobContext.of(
                task.job(),
                Instant.ofEpochMilli(claim.fireTime),
                claim.manual(),
                task.parameters(),
                () -> cancelling)
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
  private boolean finish(Claim claim, String outcome, @Nullable String error) {
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
      active.remove(claim.task.name(), claim);
    }
  }

  /** Writes a run's completion once: whether it was written (false: taken over). */
  private boolean complete(Claim claim, String outcome, @Nullable String error)
      throws InterruptedException {
    TaskRow task = claim.task;
    if (ticker.read() - dbNanos > DB_TIME_FRESH.toNanos()) {
      dbTimeWas(store.nowMillis(), ticker.read()); // no reading for a while: read it afresh
    }
    TaskStore.Completion completion = NextRun.completion(claim, outcome, error, dbNow(), instance);
    claim.completing();
    Completions group = completions;
    // The claim is renewed while the completion waits for its group.
    boolean written =
        group == null
            ? store.complete(completion)
            : group.complete(completion, properties.heartbeatTimeout());
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
    AtomicInteger failures = failureGauge(task.name());
    if (completion.succeeded()) {
      failures.set(0);
    } else if (completion.failed()) {
      int inARow = task.consecutiveFailures() + 1;
      failures.set(inARow);
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

  // --- heartbeats ---

  /**
   * Cancels runs past their timeout, and runs whose claim this instance cannot vouch for: no
   * renewal written for the heartbeat timeout less one interval (another instance may take the run
   * over at the timeout; the margin lets this one stop first). Does no I/O, so a renewal stuck on
   * the database cannot delay it.
   */
  private void checkDeadlines() {
    long giveUp = properties.heartbeatTimeout().minus(properties.heartbeatInterval()).toNanos();
    for (Claim claim : active.values()) {
      try {
        long nanos = ticker.read();
        TaskRow task = claim.task;
        if (!claim.timedOut()
            && nanos - claim.claimedNanos > TimeUnit.MILLISECONDS.toNanos(task.timeoutMs())
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
    for (Claim claim : active.values()) {
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

  /** Prunes the history now and then, and reads every task's failures into its gauge. */
  private void maintain() {
    try {
      long nanos = ticker.read();
      if (lastPrune == 0 || nanos - lastPrune > PRUNE_EVERY.toNanos()) {
        lastPrune = nanos;
        int pruned = store.prune(properties.historyRetention().toMillis());
        if (pruned > 0) {
          log.info(
              "Task history: {} run(s) older than {} pruned",
              pruned,
              properties.historyRetention());
        }
      }
      Map<String, Integer> failures = store.consecutiveFailures();
      failures.forEach((task, count) -> failureGauge(task).set(count));
      for (String gone : List.copyOf(failureGauges.keySet())) {
        if (!failures.containsKey(gone)) {
          failureGauges.remove(gone);
          meters.remove(
              new io.micrometer.core.instrument.Meter.Id(
                  "hotrank.task.consecutive.failures",
                  io.micrometer.core.instrument.Tags.of("task", gone),
                  null,
                  null,
                  io.micrometer.core.instrument.Meter.Type.GAUGE));
        }
      }
    } catch (DataAccessException e) {
      log.debug("Task maintenance skipped: {}", e.toString());
    } catch (RuntimeException | Error e) {
      log.error("Task maintenance failed", e);
    }
  }

  /**
   * The gauge of a task's consecutive failures, as the database has them (read every {@link
   * #MAINTAIN_EVERY}, and set at once by a completion here): the same on every instance.
   */
  private AtomicInteger failureGauge(String task) {
    return failureGauges.computeIfAbsent(
        task,
        name ->
            meters.gauge(
                "hotrank.task.consecutive.failures",
                List.of(Tag.of("task", name)),
                new AtomicInteger()));
  }

  // --- on demand ---

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
      if (cancelling || !firing) {
        throw new JobCancelledException(job);
      }
      TaskRow task =
          store
              .find(job)
              .orElseThrow(
                  () -> new IllegalStateException("the task of job '" + job + "' is gone"));
      if (!task.running()) {
        long now = store.nowMillis();
        dbTimeWas(now, ticker.read());
        Claim claim = claim(task, Kind.NOW, now);
        if (claim != null) {
          return execute(claim);
        }
      }
      if (--polls <= 0) {
        throw new JobBusyException(job, task.running() ? task.owner() : null);
      }
      Thread.sleep(NOW_POLL_MS);
    }
  }
}
