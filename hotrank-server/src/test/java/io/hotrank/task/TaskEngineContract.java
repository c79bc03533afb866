package io.hotrank.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.hotrank.job.Job;
import io.hotrank.job.JobBuilder;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobMode;
import io.hotrank.job.JobProperties;
import io.hotrank.job.JobSettings;
import io.hotrank.job.JobStatus;
import io.hotrank.lock.InstanceId;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.storage.SqlDialect;
import io.hotrank.support.MigratedDatabase;
import io.hotrank.task.TaskStore.Kind;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the task platform promises, against a real database: engines here are separate {@link
 * TaskEngine} objects with their own instance ids and threads, as separate processes would have, on
 * one {@code hr_task} table. Each test uses its own task and job names, so engines of other tests
 * (and the application contexts of other test classes on the same database) never claim its tasks.
 * One subclass per engine.
 */
abstract class TaskEngineContract {

  /** Short heartbeat settings, so that takeovers happen within a test. */
  private static final TaskProperties FAST =
      new TaskProperties(
          true,
          Duration.ofMillis(100),
          Duration.ofMillis(50),
          Duration.ofMillis(400),
          4,
          Duration.ofDays(7),
          Duration.ofMinutes(5),
          0,
          Duration.ofMillis(100),
          TaskHistory.ALL,
          20);

  private final List<TaskEngine> engines = new ArrayList<>();
  private final String id = UUID.randomUUID().toString().substring(0, 8);

  /** The engine under test, registered by the subclass as a static extension. */
  protected abstract MigratedDatabase database();

  private JdbcTemplate jdbc() {
    return database().jdbc();
  }

  private SqlDialect dialect() {
    return database().dialect();
  }

  private TransactionTemplate tx() {
    return database().tx();
  }

  private TaskStore store() {
    return new TaskStore(jdbc(), dialect(), tx(), TaskHistory.ALL, 20);
  }

  @AfterEach
  void stopEngines() {
    engines.forEach(TaskEngine::stop);
    jdbc().update("DELETE FROM hr_task WHERE name LIKE ?", "contract-" + id + "%");
    jdbc().update("DELETE FROM hr_task_run WHERE task_name LIKE ?", "contract-" + id + "%");
    jdbc().update("DELETE FROM hr_task_recent WHERE task_name LIKE ?", "contract-" + id + "%");
  }

  private String name(String what) {
    return "contract-" + id + "-" + what;
  }

  private TaskEngine engine(String instance, TaskProperties properties, Job... jobs) {
    return engine(instance, properties, Clock.systemUTC(), jobs);
  }

  private TaskEngine engine(String instance, TaskProperties properties, Clock clock, Job... jobs) {
    return engine(store(), instance, properties, clock, jobs);
  }

  private TaskEngine engine(
      TaskStore store, String instance, TaskProperties properties, Clock clock, Job... jobs) {
    return engine(store, InstanceId.of(instance), properties, clock, jobs);
  }

  /** An engine whose jobs are decorated as the scheduler does it, with the given clock. */
  private TaskEngine engine(
      TaskStore store, InstanceId identity, TaskProperties properties, Clock clock, Job... jobs) {
    String instance = identity.value();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    TaskEngine engine =
        new TaskEngine(
            store,
            properties,
            new JobProperties(
                new JobSettings(
                    "task", JobMode.PER_RUN, "jdbc", Duration.ofSeconds(30), Duration.ofSeconds(1)),
                Map.of()),
            identity,
            meters,
            clock,
            Ticker.system());
    java.util.LinkedHashMap<String, Job> runnable = new java.util.LinkedHashMap<>();
    for (Job job : jobs) {
      JobStatus status =
          new JobStatus(
              job.name(),
              new JobSettings(
                  "task", JobMode.PER_RUN, "jdbc", Duration.ofSeconds(30), Duration.ofSeconds(1)));
      runnable.put(
          job.name(),
          JobBuilder.of(job)
              .logged(instance, Ticker.system())
              .observed(meters, status, clock, Ticker.system())
              .build());
    }
    engine.adopt(runnable, Map.of());
    engine.start();
    engines.add(engine);
    return engine;
  }

  /** A job that records each run's fire time and fence, then does {@code work}. */
  private static Job job(String name, List<JobContext> runs, Work work) {
    return new Job() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public void run(JobContext context) throws Exception {
        runs.add(context);
        work.run(context);
      }
    };
  }

  @FunctionalInterface
  private interface Work {
    void run(JobContext context) throws Exception;
  }

  /** Inserts a task of {@code job} due {@code dueInMs} from the database's now. */
  private TaskRow insert(
      String task, String job, long dueInMs, Long intervalMs, Misfire misfire, int retries) {
    TaskStore store = store();
    TaskRow row =
        TaskRow.definition(
            task,
            job,
            null,
            "UTC",
            intervalMs,
            false,
            store.nowMillis() + dueInMs,
            misfire,
            Duration.ofMinutes(5).toMillis(),
            retries,
            100,
            "{}",
            TaskRow.FROM_API);
    assertThat(store.insert(row)).isTrue();
    return store.find(task).orElseThrow();
  }

  private List<TaskRun> history(String task) {
    return store().runs(task, 1000, 0).reversed();
  }

  /**
   * Many threads, as many instances, claim one due task seen at the same version: exactly one wins,
   * and the row then carries the winner as owner and its fence as version. Repeated, so that the
   * threads really meet.
   */
  @Test
  void compareAndSet_manyClaimersOfOneDueTask_exactlyOneWins() throws Exception {
    String task = name("race");
    insert(task, "never-" + id, -1000, 60_000L, Misfire.SKIP, 0);
    TaskStore store = store();
    ExecutorService threads = Executors.newFixedThreadPool(12);
    try {
      for (int round = 0; round < 20; round++) {
        TaskRow seen = store.find(task).orElseThrow();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<OptionalLong>> claims = new ArrayList<>();
        for (int t = 0; t < 12; t++) {
          String owner = "claimer-" + t;
          claims.add(
              threads.submit(
                  () -> {
                    start.await();
                    return store.claim(seen, Kind.SCHEDULED, owner, seen.nextTime(), 400);
                  }));
        }
        start.countDown();
        List<Long> won = new ArrayList<>();
        for (Future<OptionalLong> claim : claims) {
          claim.get(30, TimeUnit.SECONDS).ifPresent(won::add);
        }
        assertThat(won).as("round %d", round).hasSize(1);
        TaskRow after = store.find(task).orElseThrow();
        assertThat(after.version()).isEqualTo(won.getFirst()).isGreaterThan(seen.version());
        assertThat(after.status()).isEqualTo(TaskRow.RUNNING);
        // Back to due for the next round, as a completion would leave it.
        jdbc()
            .update(
                "UPDATE hr_task SET status = 'waiting', next_time = next_time - 1000 WHERE name = ?",
                task);
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * Claimers taking due tasks in batches, each passing over the rows the others hold locked, claim
   * every task exactly once; each claimed row carries its claimer, its fence and its cycle's fire
   * time. A task not due, paused, or asked for over HTTP is not taken.
   */
  @Test
  void batchClaims_byManyClaimersOfManyDueTasks_claimEachTaskExactlyOnce() throws Exception {
    String jobName = "batch-" + id;
    java.util.Set<String> due = new java.util.HashSet<>();
    for (int i = 0; i < 60; i++) {
      due.add(insert(name("batch-" + i), jobName, -1000 - i, 60_000L, Misfire.FIRE_ONCE, 0).name());
    }
    String later = insert(name("batch-later"), jobName, 60_000, 60_000L, Misfire.SKIP, 0).name();
    String paused = insert(name("batch-paused"), jobName, -10, 60_000L, Misfire.SKIP, 0).name();
    String asked = insert(name("batch-asked"), jobName, -10, 60_000L, Misfire.SKIP, 0).name();
    String other = insert(name("batch-other"), "other-" + id, -10, 60_000L, Misfire.SKIP, 0).name();
    String running = insert(name("batch-running"), jobName, -10, 60_000L, Misfire.SKIP, 0).name();
    TaskStore store = store();
    // Paused by the flag alone (a run in progress keeps its status when paused).
    jdbc().update("UPDATE hr_task SET paused = 1 WHERE name = ?", paused);
    store.trigger(asked);
    jdbc()
        .update(
            "UPDATE hr_task SET status = 'running', owner = 'elsewhere' WHERE name = ?", running);
    // Left over from a run asked for: a scheduled claim is not one.
    jdbc().update("UPDATE hr_task SET manual = 1 WHERE name LIKE ?", name("batch-1") + "%");
    // A retry's cycle: claimed with the fire time of the cycle it retries.
    String retry = name("batch-0");
    jdbc().update("UPDATE hr_task SET cycle_time = next_time - 5000 WHERE name = ?", retry);
    long retryCycle = store.find(retry).orElseThrow().cycleTime();
    ExecutorService threads = Executors.newFixedThreadPool(6);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<TaskRow>>> claimers = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        String owner = "claimer-" + t;
        claimers.add(
            threads.submit(
                () -> {
                  start.await();
                  List<TaskRow> mine = new ArrayList<>();
                  for (int empty = 0; empty < 3; ) {
                    List<TaskRow> batch = store.claimDue(List.of(jobName), owner, 7);
                    assertThat(batch).hasSizeLessThanOrEqualTo(7);
                    mine.addAll(batch);
                    empty = batch.isEmpty() ? empty + 1 : 0;
                  }
                  return mine;
                }));
      }
      start.countDown();
      Map<String, TaskRow> claimed = new java.util.HashMap<>();
      for (int t = 0; t < claimers.size(); t++) {
        for (TaskRow row : claimers.get(t).get(60, TimeUnit.SECONDS)) {
          assertThat(claimed.put(row.name(), row)).as("claimed twice: %s", row.name()).isNull();
          assertThat(row.owner()).isEqualTo("claimer-" + t);
        }
      }
      assertThat(claimed.keySet()).isEqualTo(due);
      for (TaskRow row : claimed.values()) {
        TaskRow now = store.find(row.name()).orElseThrow();
        assertThat(now.status()).isEqualTo(TaskRow.RUNNING);
        assertThat(now.owner()).isEqualTo(row.owner());
        assertThat(now.version()).isEqualTo(row.version()).isGreaterThan(0);
        assertThat(now.fireTime())
            .isEqualTo(row.name().equals(retry) ? retryCycle : now.nextTime());
        assertThat(row.fireTime()).isEqualTo(now.fireTime());
        assertThat(now.manual()).isFalse();
      }
      for (String untouched : List.of(later, paused, asked, other)) {
        assertThat(store.find(untouched).orElseThrow().status())
            .as(untouched)
            .isEqualTo(TaskRow.WAITING);
      }
      assertThat(store.find(running).orElseThrow().owner()).isEqualTo("elsewhere");
      // A claimed row is no longer due: claiming again takes nothing.
      assertThat(store.claimDue(List.of(jobName), "late", 100)).isEmpty();
    } finally {
      threads.shutdownNow();
    }
  }

  /** A claim judges "due" and "stale" by the database's clock, not by the caller's view. */
  @Test
  void aClaim_ofATaskNotYetDue_orARunStillHeartbeating_isRefused() {
    String task = name("not-due");
    TaskRow seen = insert(task, "never-" + id, 60_000, 60_000L, Misfire.SKIP, 0);
    TaskStore store = store();
    assertThat(store.claim(seen, Kind.SCHEDULED, "a", seen.nextTime(), 400)).isEmpty();
    jdbc().update("UPDATE hr_task SET next_time = next_time - 120000 WHERE name = ?", task);
    TaskRow due = store.find(task).orElseThrow();
    long fence = store.claim(due, Kind.SCHEDULED, "a", due.nextTime(), 400).orElseThrow();
    TaskRow running = store.find(task).orElseThrow();
    assertThat(store.claim(running, Kind.TAKEOVER, "b", 0, 60_000)).isEmpty();
    assertThat(store.claim(running, Kind.SCHEDULED, "b", 0, 0)).isEmpty();
    assertThat(store.find(task).orElseThrow().version()).isEqualTo(fence);
  }

  /**
   * An owner that died mid-run (a claim with no heartbeat thread behind it) is taken over once its
   * heartbeat is older than the timeout: the same fire time runs again under a higher fence, and
   * the history shows the abandoned run and the completed one.
   */
  @Test
  void aStaleRun_isTakenOver_withItsFireTime_andTheAbandonedRunIsRecorded() {
    String task = name("stale");
    String jobName = "ok-" + id;
    TaskRow seen = insert(task, jobName, -10, 3_600_000L, Misfire.SKIP, 0);
    long deadFence =
        store().claim(seen, Kind.SCHEDULED, "dead", seen.nextTime(), 400).orElseThrow();
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    engine("taker", FAST, job(jobName, runs, context -> {}));
    await().atMost(Duration.ofSeconds(10)).until(() -> history(task).size() == 2);
    List<TaskRun> history = history(task);
    assertThat(history.get(0).outcome()).isEqualTo("abandoned");
    assertThat(history.get(0).owner()).isEqualTo("dead");
    assertThat(history.get(0).fence()).isEqualTo(deadFence);
    assertThat(history.get(1).outcome()).isEqualTo("succeeded");
    assertThat(history.get(1).owner()).isEqualTo("taker");
    assertThat(history.get(1).fence()).isGreaterThan(deadFence);
    assertThat(history.get(1).fireTime()).isEqualTo(seen.nextTime());
    assertThat(runs)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.scheduledAt().toEpochMilli()).isEqualTo(seen.nextTime());
              assertThat(r.fence()).isEqualTo(history.get(1).fence());
            });
    TaskRow after = store().find(task).orElseThrow();
    assertThat(after.status()).isEqualTo(TaskRow.WAITING);
    assertThat(after.nextTime()).isEqualTo(seen.nextTime() + 3_600_000L);
  }

  /**
   * An instance whose name is exclusive (its earlier process is known dead) takes over the runs
   * that process left at its start, without waiting for their heartbeat to time out: with the
   * default ten-second timeout, the same fire time runs again long before it.
   */
  @Test
  void aRestartedInstance_takesOverItsEarlierProcesssRun_atOnce() {
    String task = name("restarted");
    String jobName = "ok-" + id;
    TaskRow seen = insert(task, jobName, -10, 3_600_000L, Misfire.SKIP, 0);
    long deadFence =
        store().claim(seen, Kind.SCHEDULED, "node", seen.nextTime(), 400).orElseThrow();
    TaskProperties defaults =
        new TaskProperties(
            true,
            Duration.ofMillis(100),
            Duration.ofSeconds(2),
            Duration.ofSeconds(10),
            4,
            Duration.ofDays(7),
            Duration.ofMinutes(5),
            0,
            Duration.ofMillis(100),
            TaskHistory.ALL,
            20);
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    engine(
        store(),
        new InstanceId("node", "0000000f", true),
        defaults,
        Clock.systemUTC(),
        job(jobName, runs, context -> {}));
    await().atMost(Duration.ofSeconds(6)).until(() -> history(task).size() == 2);
    List<TaskRun> history = history(task);
    assertThat(history.get(0).outcome()).isEqualTo("abandoned");
    assertThat(history.get(0).error()).startsWith("its owner restarted");
    assertThat(history.get(0).fence()).isEqualTo(deadFence);
    assertThat(history.get(1).outcome()).isEqualTo("succeeded");
    assertThat(history.get(1).owner()).isEqualTo("node");
    assertThat(history.get(1).fence()).isGreaterThan(deadFence);
    assertThat(history.get(1).fireTime()).isEqualTo(seen.nextTime());
    assertThat(runs).singleElement();
  }

  /**
   * A run whose task is taken over while it runs is told so by its next heartbeat: the job sees its
   * cancellation, and its outcome is refused, so nothing of it is recorded and the new owner's
   * claim stands.
   */
  @Test
  void losingTheClaim_cancelsTheJob_andItsCompletionIsRefused() {
    String task = name("lost");
    String jobName = "block-" + id;
    insert(task, jobName, -10, 3_600_000L, Misfire.SKIP, 0);
    CountDownLatch started = new CountDownLatch(1);
    AtomicInteger sawCancel = new AtomicInteger();
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    engine(
        "owner",
        FAST,
        job(
            jobName,
            runs,
            context -> {
              started.countDown();
              while (!context.cancelled()) {
                Thread.sleep(10);
              }
              sawCancel.incrementAndGet();
              context.throwIfCancelled();
            }));
    await().atMost(Duration.ofSeconds(10)).until(() -> started.getCount() == 0);
    TaskRow running = store().find(task).orElseThrow();
    long newFence =
        store().claim(running, Kind.TAKEOVER, "usurper", 0, 0).orElseThrow(); // forced takeover
    // The usurper stays alive (its heartbeat is fresh for an hour): nobody takes it back.
    jdbc().update("UPDATE hr_task SET heartbeat = heartbeat + 3600000 WHERE name = ?", task);
    await().atMost(Duration.ofSeconds(10)).until(() -> sawCancel.get() == 1);
    await()
        .during(Duration.ofMillis(300))
        .atMost(Duration.ofSeconds(5))
        .until(() -> history(task).isEmpty());
    TaskRow after = store().find(task).orElseThrow();
    assertThat(after.version()).isEqualTo(newFence);
    assertThat(after.owner()).isEqualTo("usurper");
    assertThat(after.status()).isEqualTo(TaskRow.RUNNING);
  }

  /** A completion carrying an old fence changes nothing, whatever the caller believes. */
  @Test
  void aCompletion_afterATakeover_isRefused_andRecordsNothing() {
    String task = name("complete");
    TaskRow seen = insert(task, "never-" + id, -10, 60_000L, Misfire.SKIP, 0);
    TaskStore store = store();
    long first = store.claim(seen, Kind.SCHEDULED, "a", seen.nextTime(), 400).orElseThrow();
    long second =
        store.claim(store.find(task).orElseThrow(), Kind.TAKEOVER, "b", 0, 0).orElseThrow();
    assertThat(second).isGreaterThan(first);
    Completion stale =
        new Completion(task, first, "a", "succeeded", 0, 1L, null, 0L, false, 0, true, false, null);
    assertThat(store.complete(stale)).isFalse();
    assertThat(history(task)).isEmpty();
    assertThat(store.find(task).orElseThrow().status()).isEqualTo(TaskRow.RUNNING);
    Completion current =
        new Completion(
            task, second, "b", "succeeded", 0, 1L, null, 0L, false, 0, true, false, null);
    assertThat(store.complete(current)).isTrue();
    assertThat(history(task))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.owner()).isEqualTo("b");
              assertThat(r.fence()).isEqualTo(second);
            });
  }

  /**
   * Completions written as a group, in one transaction: each is still judged by its own fence, so
   * the one whose run was taken over writes nothing while the others are written, each with its
   * history row.
   */
  @Test
  void aGroupOfCompletions_writesEachUnderItsOwnFence() {
    TaskStore store = store();
    List<Completion> group = new ArrayList<>();
    List<String> tasks = new ArrayList<>();
    long staleFence = 0;
    for (int i = 0; i < 4; i++) {
      String task = name("group-" + i);
      tasks.add(task);
      TaskRow seen = insert(task, "never-" + id, -10, 60_000L, Misfire.SKIP, 0);
      long fence = store.claim(seen, Kind.SCHEDULED, "a", seen.nextTime(), 400).orElseThrow();
      if (i == 2) {
        staleFence = fence;
        store.claim(store.find(task).orElseThrow(), Kind.TAKEOVER, "b", 0, 0).orElseThrow();
      }
      group.add(
          new Completion(
              task, fence, "a", "succeeded", 0, 1L, null, 0L, false, 0, true, false, null));
    }
    // Given out of name order: the answers follow the order given.
    java.util.Collections.reverse(group);
    assertThat(store.completeAll(group)).containsExactly(true, false, true, true);
    for (int i = 0; i < 4; i++) {
      TaskRow after = store.find(tasks.get(i)).orElseThrow();
      if (i == 2) {
        assertThat(history(tasks.get(i))).isEmpty();
        assertThat(after.owner()).isEqualTo("b");
        assertThat(after.status()).isEqualTo(TaskRow.RUNNING);
        assertThat(after.version()).isGreaterThan(staleFence);
      } else {
        assertThat(history(tasks.get(i)))
            .singleElement()
            .satisfies(r -> assertThat(r.outcome()).isEqualTo("succeeded"));
        assertThat(after.status()).isEqualTo(TaskRow.WAITING);
        assertThat(after.nextTime()).isEqualTo(1L);
      }
    }
  }

  /**
   * A group may hold two runs of one task: a stale run's completion, and the completion of the run
   * that took the task over. The new run's is written, under its own fence; the stale one's is
   * refused and records nothing.
   */
  @Test
  void aGroupWithAStaleAndANewRunOfOneTask_writesOnlyTheNewRun() {
    // history=failures: the stale run would go to the runs table, the new one goes to the ring.
    TaskStore store = new TaskStore(jdbc(), dialect(), tx(), TaskHistory.FAILURES, 20);
    String task = name("twice");
    String other = name("twice-other");
    TaskRow seen = insert(task, "never-" + id, -10, 60_000L, Misfire.SKIP, 0);
    long stale = store.claim(seen, Kind.SCHEDULED, "a", seen.nextTime(), 400).orElseThrow();
    long current =
        store.claim(store.find(task).orElseThrow(), Kind.TAKEOVER, "b", 0, 0).orElseThrow();
    TaskRow otherSeen = insert(other, "never-" + id, -10, 60_000L, Misfire.SKIP, 0);
    long otherFence =
        store.claim(otherSeen, Kind.SCHEDULED, "a", otherSeen.nextTime(), 400).orElseThrow();
    List<Completion> group =
        List.of(
            new Completion(
                task, stale, "a", "failed", 0, 9L, null, 0L, false, 0, false, true, "late"),
            new Completion(
                other, otherFence, "a", "succeeded", 0, 8L, null, 0L, false, 0, true, false, null),
            new Completion(
                task, current, "b", "succeeded", 0, 7L, null, 0L, false, 0, true, false, null));
    assertThat(store.completeAll(group)).containsExactly(false, true, true);
    TaskRow after = store.find(task).orElseThrow();
    assertThat(after.status()).isEqualTo(TaskRow.WAITING);
    assertThat(after.nextTime()).isEqualTo(7L);
    assertThat(after.consecutiveFailures()).isZero();
    assertThat(store.runs(task, 100, 0))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.outcome()).isEqualTo("succeeded");
              assertThat(r.owner()).isEqualTo("b");
              assertThat(r.fence()).isEqualTo(current);
            });
    assertThat(rows("hr_task_run", task)).isZero();
    assertThat(store.find(other).orElseThrow().nextTime()).isEqualTo(8L);
  }

  /**
   * Claimed one by one (an engine without SKIP LOCKED: MySQL 5.7, MariaDB before 10.6), a due task
   * runs at its fire time, and a task whose skip policy passes over missed fire times is moved on
   * without running.
   */
  @Test
  void claimedOneByOne_aDueTaskRuns_andMissedFireTimesAreSkipped() {
    String due = name("single-due");
    String late = name("single-late");
    String jobName = "ok-" + id;
    TaskRow dueSeen = insert(due, jobName, -10, 3_600_000L, Misfire.SKIP, 0);
    TaskRow lateSeen = insert(late, jobName, -10_500, 1000L, Misfire.SKIP, 0);
    TaskStore oneByOne = new TaskStore(jdbc(), dialect(), tx(), TaskHistory.ALL, 20, false);
    assertThat(oneByOne.claimsInBatches()).isFalse();
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    engine(oneByOne, "a", FAST, Clock.systemUTC(), job(jobName, runs, context -> {}));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> !history(due).isEmpty() && !history(late).isEmpty());
    assertThat(history(due).getFirst().outcome()).isEqualTo("succeeded");
    assertThat(history(due).getFirst().fireTime()).isEqualTo(dueSeen.nextTime());
    TaskRun skipped = history(late).getFirst();
    assertThat(skipped.outcome()).isEqualTo("skipped");
    assertThat(skipped.fireTime()).isEqualTo(lateSeen.nextTime());
    assertThat(skipped.error()).containsPattern("\\d+ fire time\\(s\\) missed; next at ");
    assertThat(runs).noneMatch(r -> r.scheduledAt().toEpochMilli() == lateSeen.nextTime());
  }

  /**
   * Completions handed to the group writer from many threads at once: each is written, or refused,
   * under its own fence, and one that cannot be written (an outcome too long for its column) fails
   * alone, its group's others written.
   */
  @Test
  void groupedCompletions_oneThatCannotBeWritten_failsAlone() throws Exception {
    TaskStore store = store();
    Completions completions = new Completions(store);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Completion> given = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        String task = name("grouped-" + i);
        TaskRow seen = insert(task, "never-" + id, -10, 60_000L, Misfire.SKIP, 0);
        long fence = store.claim(seen, Kind.SCHEDULED, "a", seen.nextTime(), 400).orElseThrow();
        if (i == 5) {
          store.claim(store.find(task).orElseThrow(), Kind.TAKEOVER, "b", 0, 0).orElseThrow();
        }
        String outcome = i == 3 ? "x".repeat(5000) : "succeeded";
        given.add(
            new Completion(
                task, fence, "a", outcome, 0, 1L, null, 0L, false, 0, true, false, null));
      }
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> answers = new ArrayList<>();
      for (Completion completion : given) {
        answers.add(
            threads.submit(
                () -> {
                  start.await();
                  return completions.complete(completion, Duration.ofSeconds(10));
                }));
      }
      start.countDown();
      for (int i = 0; i < 8; i++) {
        Completion completion = given.get(i);
        if (i == 3) {
          assertThatThrownBy(() -> answers.get(3).get(30, TimeUnit.SECONDS))
              .hasCauseInstanceOf(org.springframework.dao.DataAccessException.class);
          assertThat(history(completion.task())).isEmpty();
          assertThat(store.find(completion.task()).orElseThrow().status())
              .isEqualTo(TaskRow.RUNNING);
        } else if (i == 5) {
          assertThat(answers.get(i).get(30, TimeUnit.SECONDS)).isFalse();
          assertThat(history(completion.task())).isEmpty();
        } else {
          assertThat(answers.get(i).get(30, TimeUnit.SECONDS)).as(completion.task()).isTrue();
          assertThat(history(completion.task()))
              .singleElement()
              .satisfies(r -> assertThat(r.fence()).isEqualTo(completion.fence()));
          assertThat(store.find(completion.task()).orElseThrow().status())
              .isEqualTo(TaskRow.WAITING);
        }
      }
    } finally {
      completions.close();
      threads.shutdownNow();
    }
  }

  /** One run of {@code task} on {@code store}, claimed as asked for, ended with {@code outcome}. */
  private long runOnce(TaskStore store, String task, String outcome, boolean grouped) {
    long fence = store.claim(store.find(task).orElseThrow(), Kind.NOW, "a", 1, 400).orElseThrow();
    boolean succeeded = outcome.equals("succeeded");
    Completion done =
        new Completion(
            task, fence, "a", outcome, 0, 1L, null, 0L, false, 0, succeeded, !succeeded, null);
    assertThat(grouped ? store.completeAll(List.of(done))[0] : store.complete(done)).isTrue();
    return fence;
  }

  private int rows(String table, String task) {
    Integer count =
        jdbc()
            .queryForObject(
                "SELECT COUNT(*) FROM " + table + " WHERE task_name = ?", Integer.class, task);
    return count == null ? 0 : count;
  }

  /**
   * history=failures: every run that did not succeed gets a row of its own; of the successful ones,
   * only the last {@code history-keep}, in the task's ring, overwritten in place. Reads merge both,
   * newest first, and page through them; the last run is the newest of either.
   */
  @Test
  void historyFailures_keepsEveryFailure_andTheLastSuccessfulRuns() {
    TaskStore store = new TaskStore(jdbc(), dialect(), tx(), TaskHistory.FAILURES, 3);
    String task = name("ring");
    insert(task, "never-" + id, -10, 60_000L, Misfire.SKIP, 0);
    List<String> outcomes =
        List.of(
            "succeeded",
            "succeeded",
            "failed",
            "succeeded",
            "succeeded",
            "succeeded",
            "timed-out",
            "succeeded");
    List<Long> fences = new ArrayList<>();
    for (int i = 0; i < outcomes.size(); i++) {
      fences.add(runOnce(store, task, outcomes.get(i), i % 2 == 1));
    }
    // Newest first: the last three successful runs (4, 5, 7) and both failures (2, 6).
    List<TaskRun> runs = store.runs(task, 100, 0);
    assertThat(runs)
        .extracting(TaskRun::fence)
        .containsExactly(fences.get(7), fences.get(6), fences.get(5), fences.get(4), fences.get(2));
    assertThat(runs)
        .extracting(TaskRun::outcome)
        .containsExactly("succeeded", "timed-out", "succeeded", "succeeded", "failed");
    assertThat(runs).filteredOn(r -> r.outcome().equals("succeeded")).allMatch(r -> r.id() == null);
    assertThat(runs)
        .filteredOn(r -> !r.outcome().equals("succeeded"))
        .allMatch(r -> r.id() != null);
    assertThat(rows("hr_task_recent", task)).isEqualTo(3);
    assertThat(rows("hr_task_run", task)).isEqualTo(2);
    assertThat(store.runs(task, 2, 1))
        .extracting(TaskRun::fence)
        .containsExactly(fences.get(6), fences.get(5));
    assertThat(store.lastRuns().get(task).fence()).isEqualTo(fences.get(7));
    long failed = runOnce(store, task, "failed", false);
    assertThat(store.lastRuns().get(task).fence()).isEqualTo(failed);

    // A smaller ring: the slots past it go at the next pruning, the newest successful run stays.
    TaskStore smaller = new TaskStore(jdbc(), dialect(), tx(), TaskHistory.FAILURES, 2);
    smaller.prune(Duration.ofDays(7).toMillis());
    assertThat(rows("hr_task_recent", task)).isLessThanOrEqualTo(2);
    assertThat(smaller.runs(task, 100, 0))
        .extracting(TaskRun::fence)
        .contains(fences.get(7), failed, fences.get(6), fences.get(2));
  }

  /**
   * history=failures, a group of completions ending differently: each run's row goes where its
   * outcome sends it, in the group's one transaction.
   */
  @Test
  void historyFailures_aGroupOfMixedOutcomes_writesEachRunWhereItBelongs() {
    TaskStore store = new TaskStore(jdbc(), dialect(), tx(), TaskHistory.FAILURES, 20);
    List<String> outcomes = List.of("succeeded", "failed", "succeeded", "rejected", "succeeded");
    List<Completion> group = new ArrayList<>();
    for (int i = 0; i < outcomes.size(); i++) {
      String task = name("mixed-" + i);
      TaskRow seen = insert(task, "never-" + id, -10, 60_000L, Misfire.SKIP, 0);
      long fence = store.claim(seen, Kind.SCHEDULED, "a", seen.nextTime(), 400).orElseThrow();
      boolean succeeded = outcomes.get(i).equals("succeeded");
      group.add(
          new Completion(
              task,
              fence,
              "a",
              outcomes.get(i),
              0,
              1L,
              null,
              0L,
              false,
              0,
              succeeded,
              !succeeded,
              null));
    }
    assertThat(store.completeAll(group)).containsOnly(true);
    for (Completion done : group) {
      boolean succeeded = done.outcome().equals("succeeded");
      assertThat(store.runs(done.task(), 10, 0))
          .as(done.task())
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.fence()).isEqualTo(done.fence());
                assertThat(r.outcome()).isEqualTo(done.outcome());
                assertThat(r.id() == null).isEqualTo(succeeded);
              });
      assertThat(store.find(done.task()).orElseThrow().status()).isEqualTo(TaskRow.WAITING);
    }
  }

  /**
   * A group whose completions differ in every field (next fire time kept or set, a retry delay, a
   * cycle kept, a run asked for again, attempts, errors, outcomes) leaves each task and its history
   * exactly as that completion written alone leaves a twin task: a group that writes all its tasks
   * in one statement must not mix up their values.
   */
  @Test
  void aGroupOfDifferingCompletions_writesEachTaskAsItsCompletionAloneWould() {
    TaskStore store = new TaskStore(jdbc(), dialect(), tx(), TaskHistory.FAILURES, 20);
    record Ending(
        String outcome,
        @Nullable Long nextTime,
        @Nullable Long retryDelayMs,
        @Nullable Long cycleTime,
        boolean retrigger,
        int attempt,
        int runAttempt,
        @Nullable String error) {}
    List<Ending> endings =
        List.of(
            new Ending("succeeded", 5_000L, null, 0L, false, 0, 0, null),
            new Ending("succeeded", 7_000L, null, 0L, false, 0, 1, null),
            new Ending("failed", null, 600_000L, 3_000L, false, 2, 1, "boom"),
            new Ending("timed-out", null, null, null, true, 1, 2, "too slow"),
            new Ending("cancelled", 9_000L, null, 0L, true, 0, 0, null),
            new Ending("succeeded", null, null, null, false, 0, 3, null));
    List<Completion> grouped = new ArrayList<>();
    List<Completion> alone = new ArrayList<>();
    Map<String, Long> nextTimes = new java.util.HashMap<>();
    for (int i = 0; i < endings.size(); i++) {
      Ending end = endings.get(i);
      for (List<Completion> into : List.of(grouped, alone)) {
        String task = name((into == grouped ? "grouped-" : "alone-") + i);
        TaskRow seen = insert(task, "never-" + id, -10, 60_000L, Misfire.SKIP, 3);
        nextTimes.put(task, seen.nextTime());
        long fence = store.claim(seen, Kind.SCHEDULED, "a", seen.nextTime(), 400).orElseThrow();
        boolean succeeded = end.outcome().equals("succeeded");
        into.add(
            new Completion(
                task,
                fence,
                "a",
                end.outcome(),
                end.runAttempt(),
                end.nextTime(),
                end.retryDelayMs(),
                end.cycleTime(),
                end.retrigger(),
                end.attempt(),
                succeeded,
                !succeeded && !end.outcome().equals("cancelled"),
                end.error()));
      }
    }
    assertThat(store.completeAll(grouped)).containsOnly(true);
    for (Completion done : alone) {
      assertThat(store.complete(done)).isTrue();
    }
    for (int i = 0; i < endings.size(); i++) {
      TaskRow group = store.find(grouped.get(i).task()).orElseThrow();
      TaskRow single = store.find(alone.get(i).task()).orElseThrow();
      String as = "ending " + i + ": " + endings.get(i);
      assertThat(group.status()).as(as).isEqualTo(single.status());
      assertThat(group.attempt()).as(as).isEqualTo(single.attempt());
      assertThat(group.cycleTime()).as(as).isEqualTo(single.cycleTime());
      assertThat(group.triggered()).as(as).isEqualTo(single.triggered());
      assertThat(group.consecutiveFailures()).as(as).isEqualTo(single.consecutiveFailures());
      if (endings.get(i).retryDelayMs() == null && endings.get(i).nextTime() == null) {
        assertThat(group.nextTime()).as(as).isEqualTo(nextTimes.get(group.name())); // kept
        assertThat(single.nextTime()).as(as).isEqualTo(nextTimes.get(single.name()));
      } else if (endings.get(i).retryDelayMs() == null) {
        assertThat(group.nextTime()).as(as).isEqualTo(single.nextTime());
      } else { // the database's now plus the delay, read a moment apart
        assertThat(group.nextTime()).as(as).isCloseTo(single.nextTime(), within(5_000L));
      }
      List<TaskRun> groupRuns = store.runs(group.name(), 10, 0);
      List<TaskRun> singleRuns = store.runs(single.name(), 10, 0);
      assertThat(groupRuns).as(as).hasSameSizeAs(singleRuns).hasSize(1);
      TaskRun g = groupRuns.getFirst();
      TaskRun s = singleRuns.getFirst();
      assertThat(g.fence()).as(as).isEqualTo(grouped.get(i).fence());
      assertThat(List.of(g.outcome(), g.owner(), g.attempt(), g.manual(), g.id() == null))
          .as(as)
          .isEqualTo(List.of(s.outcome(), s.owner(), s.attempt(), s.manual(), s.id() == null));
      assertThat(g.error()).as(as).isEqualTo(s.error()).isEqualTo(endings.get(i).error());
      assertThat(g.fireTime()).as(as).isEqualTo(group.fireTime());
    }
  }

  /**
   * history=none: no run leaves a row, not even a takeover's abandoned one; the task still moves,
   * and counts its failures.
   */
  @Test
  void historyNone_recordsNoRun_andTheTaskStillMoves() {
    TaskStore store = new TaskStore(jdbc(), dialect(), tx(), TaskHistory.NONE, 20);
    String task = name("none");
    insert(task, "never-" + id, -10, 60_000L, Misfire.SKIP, 0);
    runOnce(store, task, "succeeded", false);
    runOnce(store, task, "failed", true);
    runOnce(store, task, "failed", false);
    assertThat(store.find(task).orElseThrow().consecutiveFailures()).isEqualTo(2);
    store.claim(store.find(task).orElseThrow(), Kind.NOW, "a", 1, 400).orElseThrow();
    assertThat(store.takeOver(store.find(task).orElseThrow(), "b", 0)).isPresent();
    assertThat(store.runs(task, 10, 0)).isEmpty();
    assertThat(store.lastRuns()).doesNotContainKey(task);
    assertThat(rows("hr_task_run", task) + rows("hr_task_recent", task)).isZero();
  }

  /** skip: fire times missed while no instance ran are passed over, with a history row, no run. */
  @Test
  void misfireSkip_passesOverMissedFireTimes_withoutRunning() {
    String task = name("skip");
    String jobName = "ok-" + id;
    TaskRow seen = insert(task, jobName, -10_500, 1000L, Misfire.SKIP, 0);
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    engine("a", FAST, job(jobName, runs, context -> {}));
    await().atMost(Duration.ofSeconds(10)).until(() -> !history(task).isEmpty());
    TaskRun skipped = history(task).getFirst();
    assertThat(skipped.outcome()).isEqualTo("skipped");
    assertThat(skipped.fireTime()).isEqualTo(seen.nextTime());
    // At least the eleven fire times before the engine started; the next is on the interval's
    // grid, and every run after is at or after it.
    java.util.regex.Matcher skip =
        java.util.regex.Pattern.compile("(\\d+) fire time\\(s\\) missed; next at (\\S+)")
            .matcher(skipped.error());
    assertThat(skip.find()).as(skipped.error()).isTrue();
    assertThat(Integer.parseInt(skip.group(1))).isGreaterThanOrEqualTo(11);
    long next = java.time.Instant.parse(skip.group(2)).toEpochMilli();
    assertThat((next - seen.nextTime()) % 1000).isZero();
    assertThat(next).isGreaterThan(skipped.startedAt());
    assertThat(runs)
        .allSatisfy(r -> assertThat(r.scheduledAt().toEpochMilli()).isGreaterThanOrEqualTo(next));
  }

  /** fire-once: one run now for all missed fire times, then on from the next future one. */
  @Test
  void misfireFireOnce_runsOnceForAllMissedFireTimes() {
    String task = name("once");
    String jobName = "ok-" + id;
    TaskRow seen = insert(task, jobName, -10_500, 3_000L, Misfire.FIRE_ONCE, 0);
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    engine("a", FAST, job(jobName, runs, context -> {}));
    await().atMost(Duration.ofSeconds(10)).until(() -> !history(task).isEmpty());
    TaskRun once = history(task).getFirst();
    assertThat(once.outcome()).isEqualTo("succeeded");
    assertThat(once.fireTime()).isEqualTo(seen.nextTime());
    TaskRow after = store().find(task).orElseThrow();
    assertThat(after.nextTime()).isGreaterThan(once.startedAt());
    assertThat(after.nextTime() - once.startedAt()).isLessThanOrEqualTo(3_000);
    assertThat(runs).hasSize(1);
  }

  /**
   * A failing run is retried with doubling backoff up to the maximum, on the database's clock; then
   * the task goes on to its next cycle with the attempt reset and the failures counted.
   */
  @Test
  void failures_areRetriedWithBackoff_thenTheNextCycle() {
    String task = name("retry");
    String jobName = "fail-" + id;
    TaskRow seen = insert(task, jobName, -10, 3_600_000L, Misfire.SKIP, 2);
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    engine(
        "a",
        FAST,
        job(
            jobName,
            runs,
            context -> {
              throw new IllegalStateException("boom " + runs.size());
            }));
    await().atMost(Duration.ofSeconds(15)).until(() -> history(task).size() == 3);
    List<TaskRun> history = history(task);
    assertThat(history).extracting(TaskRun::outcome).containsOnly("failed");
    assertThat(history).extracting(TaskRun::attempt).containsExactly(0, 1, 2);
    assertThat(history).extracting(TaskRun::fireTime).containsOnly(seen.nextTime());
    assertThat(history.get(0).error()).contains("boom 1");
    // Backoff 100 ms, then 200 ms: each retry starts no earlier than its delay after the failure,
    // less the time between the completion's two readings of the database's clock (its update sets
    // the retry time, its history row, a statement later, the end): a few milliseconds, tens on a
    // loaded machine (189 ms for the second was seen under CI load), hence 50 ms of slack. The
    // second gap exceeding the first delay shows the doubling.
    assertThat(history.get(1).startedAt() - history.get(0).endedAt()).isGreaterThanOrEqualTo(50);
    assertThat(history.get(2).startedAt() - history.get(1).endedAt()).isGreaterThanOrEqualTo(150);
    TaskRow after = store().find(task).orElseThrow();
    assertThat(after.attempt()).isZero();
    assertThat(after.consecutiveFailures()).isEqualTo(3);
    assertThat(after.nextTime()).isEqualTo(seen.nextTime() + 3_600_000L);
    await().during(Duration.ofMillis(500)).until(() -> runs.size() == 3);
  }

  /** A run past its timeout is cancelled and recorded as timed out. */
  @Test
  void aRunPastItsTimeout_isCancelled_andRecordedTimedOut() {
    String task = name("timeout");
    String jobName = "slow-" + id;
    insert(task, jobName, -10, 3_600_000L, Misfire.SKIP, 0);
    jdbc().update("UPDATE hr_task SET timeout_ms = 200 WHERE name = ?", task);
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    engine(
        "a",
        FAST,
        job(
            jobName,
            runs,
            context -> {
              while (!context.cancelled()) {
                Thread.sleep(10);
              }
              context.throwIfCancelled();
            }));
    await().atMost(Duration.ofSeconds(10)).until(() -> !history(task).isEmpty());
    TaskRun run = history(task).getFirst();
    assertThat(run.outcome()).isEqualTo("timed-out");
    assertThat(run.endedAt() - run.startedAt()).isGreaterThanOrEqualTo(200);
    assertThat(store().find(task).orElseThrow().consecutiveFailures()).isEqualTo(1);
  }

  /**
   * Pause lets the run in progress finish and starts no other; trigger runs a paused task once;
   * resume brings the schedule back.
   */
  @Test
  void pause_finishesTheCurrentRun_startsNoOther_triggerRunsOnce_resumeRestarts() throws Exception {
    String task = name("pause");
    String jobName = "gate-" + id;
    insert(task, jobName, -10, 1000L, Misfire.SKIP, 0);
    CountDownLatch release = new CountDownLatch(1);
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    TaskEngine engine =
        engine(
            "a",
            FAST,
            job(
                jobName,
                runs,
                context -> {
                  if (runs.size() == 1) {
                    release.await(10, TimeUnit.SECONDS);
                  }
                }));
    await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 1);
    TaskStore store = store();
    assertThat(store.pause(task)).isTrue();
    assertThat(store.find(task).orElseThrow().status()).isEqualTo(TaskRow.RUNNING);
    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> history(task).size() == 1);
    assertThat(store.find(task).orElseThrow().status()).isEqualTo(TaskRow.PAUSED);
    await().during(Duration.ofMillis(2500)).until(() -> runs.size() == 1);

    assertThat(engine.trigger(task)).isTrue();
    await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 2);
    assertThat(runs.get(1).manual()).isTrue();
    await().atMost(Duration.ofSeconds(5)).until(() -> history(task).size() == 2);
    assertThat(store.find(task).orElseThrow().status()).isEqualTo(TaskRow.PAUSED);
    await().during(Duration.ofMillis(1500)).until(() -> runs.size() == 2);

    assertThat(store.resume(task)).isTrue();
    await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() >= 3);
    assertThat(runs.get(2).manual()).isFalse();
  }

  /**
   * Two engines whose instance clocks (the {@code Clock} their jobs' decorators read) disagree by
   * two hours share a task on one database: the fire times run are the database's grid, each once,
   * and nothing is taken over. The task platform reads no instance clock; the process-level version
   * of this, a JVM whose wall clock is ten minutes ahead, is in {@link TasksProcessTest}.
   */
  @Test
  void skewedInstanceClocks_changeNothing() {
    String task = name("skew");
    String jobName = "ok-" + id;
    TaskRow seen = insert(task, jobName, 300, 500L, Misfire.SKIP, 0);
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    Job job = job(jobName, runs, context -> {});
    engine("ahead", FAST, Clock.offset(Clock.systemUTC(), Duration.ofHours(1)), job);
    engine("behind", FAST, Clock.offset(Clock.systemUTC(), Duration.ofHours(-1)), job);
    await().atMost(Duration.ofSeconds(15)).until(() -> runs.size() >= 8);
    List<TaskRun> history = history(task);
    assertThat(history).extracting(TaskRun::outcome).doesNotContain("abandoned", "failed");
    List<Long> fired =
        history.stream()
            .filter(r -> r.outcome().equals("succeeded"))
            .map(TaskRun::fireTime)
            .toList();
    assertThat(fired).doesNotHaveDuplicates();
    assertThat(fired).allSatisfy(at -> assertThat((at - seen.nextTime()) % 500).isZero());
  }

  /**
   * A run cancelled by shutdown is due again at once, for any instance, and runs the same fire
   * time: the interval keeps its phase.
   */
  @Test
  void aRunCancelledByShutdown_isRunAgain_withItsFireTime() {
    String task = name("rerun");
    String jobName = "stop-" + id;
    TaskRow seen = insert(task, jobName, -10, 3_600_000L, Misfire.SKIP, 0);
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    Job job =
        job(
            jobName,
            runs,
            context -> {
              while (runs.size() == 1 && !context.cancelled()) {
                Thread.sleep(10);
              }
              context.throwIfCancelled();
            });
    TaskEngine first = engine("first", FAST, job);
    await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 1);
    first.stop(); // grace 1 s, then cancelled
    assertThat(history(task))
        .singleElement()
        .satisfies(r -> assertThat(r.outcome()).isEqualTo("cancelled"));
    engine("second", FAST, job);
    await().atMost(Duration.ofSeconds(10)).until(() -> history(task).size() == 2);
    TaskRun again = history(task).get(1);
    assertThat(again.outcome()).isEqualTo("succeeded");
    assertThat(again.owner()).isEqualTo("second");
    assertThat(again.fireTime()).isEqualTo(seen.nextTime());
    assertThat(runs.get(1).scheduledAt().toEpochMilli()).isEqualTo(seen.nextTime());
    assertThat(store().find(task).orElseThrow().nextTime()).isEqualTo(seen.nextTime() + 3_600_000L);
  }

  /** Inserts {@code count} tasks of {@code job}, due now, each to run once. */
  private List<TaskRow> insertDue(String prefix, String job, int count) {
    List<TaskRow> tasks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tasks.add(insert(name(prefix + "-" + i), job, -10, 3_600_000L, Misfire.SKIP, 0));
    }
    return tasks;
  }

  /**
   * A job whose first {@code shortRuns} runs take 5 ms; later ones hold their worker until
   * cancelled. {@code running} counts the runs in progress, {@code most} the most at once.
   */
  private static Job holdingAfter(
      String name,
      List<JobContext> runs,
      int shortRuns,
      AtomicInteger running,
      AtomicInteger most) {
    return job(
        name,
        runs,
        context -> {
          most.accumulateAndGet(running.incrementAndGet(), Math::max);
          try {
            if (runs.size() <= shortRuns) {
              Thread.sleep(5);
              return;
            }
            while (!context.cancelled()) {
              Thread.sleep(5);
            }
            context.throwIfCancelled();
          } finally {
            running.decrementAndGet();
          }
        });
  }

  /** The runs of {@code tasks} released before they started, by the error that says so. */
  private List<TaskRun> released(List<TaskRow> tasks) {
    List<TaskRun> released = new ArrayList<>();
    for (TaskRow task : tasks) {
      history(task.name()).stream()
          .filter(r -> r.error() != null && r.error().startsWith("not started: "))
          .forEach(released::add);
    }
    return released;
  }

  /** Until four runs hold the workers and at least one more task was claimed ahead. */
  private void awaitClaimsAhead(String job, String owner, AtomicInteger running) {
    await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 4 && held(job, owner) > 4);
  }

  private int held(String job, String owner) {
    Integer held =
        jdbc()
            .queryForObject(
                "SELECT COUNT(*) FROM hr_task WHERE job = ? AND owner = ? AND status = 'running'",
                Integer.class,
                job,
                owner);
    return held == null ? 0 : held;
  }

  /**
   * While runs are short, an instance claims ahead of its free workers; at most max-concurrent run
   * at once. At a stop, the claims that never started are released: cancelled, not started, and due
   * again at once with their fire times. None is lost.
   */
  @Test
  void claimAhead_runsAtMostMaxConcurrent_andAStopReleasesTheClaimsThatNeverStarted() {
    String jobName = "ahead-" + id;
    List<TaskRow> tasks = insertDue("ahead", jobName, 60);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    TaskEngine engine = engine("ahead", FAST, holdingAfter(jobName, runs, 20, running, most));
    awaitClaimsAhead(jobName, "ahead", running);
    engine.stop(); // grace 1 s, then cancelled; the claims waiting for a worker never start
    assertThat(most.get()).isEqualTo(4);
    assertThat(running.get()).isZero();
    long now = store().nowMillis();
    List<TaskRun> released = released(tasks);
    assertThat(released).hasSizeBetween(1, 4);
    for (TaskRun run : released) {
      assertThat(run.outcome()).isEqualTo("cancelled");
      TaskRow inserted =
          tasks.stream().filter(t -> t.name().equals(run.task())).findFirst().orElseThrow();
      assertThat(run.fireTime()).isEqualTo(inserted.nextTime()); // its cycle's, kept
      assertThat(store().find(run.task()).orElseThrow().nextTime()).isLessThanOrEqualTo(now);
    }
    for (TaskRow task : tasks) {
      assertThat(store().find(task.name()).orElseThrow().status()).isEqualTo(TaskRow.WAITING);
    }
  }

  /**
   * Runs that grow long stop an instance claiming ahead, and the claims it made ahead are released
   * after waiting a second for a worker: another instance with free workers runs them.
   */
  @Test
  void claimsAhead_behindRunsThatGrewLong_areReleased_andAnotherInstanceRunsThem() {
    String jobName = "behind-" + id;
    List<TaskRow> tasks = insertDue("behind", jobName, 40);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<JobContext> runs = new CopyOnWriteArrayList<>();
    TaskEngine first = engine("first", FAST, holdingAfter(jobName, runs, 20, running, most));
    awaitClaimsAhead(jobName, "first", running);
    List<JobContext> others = new CopyOnWriteArrayList<>();
    engine("second", FAST, job(jobName, others, context -> {}));
    // Every task but the four held by the first instance's runs ends, the second running the rest.
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                tasks.stream()
                        .filter(
                            t ->
                                history(t.name()).stream()
                                    .anyMatch(r -> r.outcome().equals("succeeded")))
                        .count()
                    == 36);
    List<TaskRun> released = released(tasks);
    assertThat(released).isNotEmpty();
    for (TaskRun run : released) {
      assertThat(run.owner()).isEqualTo("first");
      assertThat(run.error()).isEqualTo("not started: waited 1000 ms for a worker");
      assertThat(history(run.task()))
          .anySatisfy(
              r -> {
                assertThat(r.owner()).isEqualTo("second");
                assertThat(r.outcome()).isEqualTo("succeeded");
                assertThat(r.fireTime()).isEqualTo(run.fireTime());
              });
    }
    assertThat(held(jobName, "first")).isEqualTo(4);
    first.stop();
  }

  /** A bad cron or zone is refused naming the field, before anything is written. */
  @Test
  void aBadCronOrZone_isRefusedNamingTheField() {
    TaskDefinitions definitions = new TaskDefinitions(java.util.Set.of("ok"), FAST);
    TaskRequest request =
        new TaskRequest(
            name("bad"),
            "ok",
            "61 * * * * *",
            "Mars/Olympus",
            null,
            "later",
            null,
            -1,
            null,
            null,
            null);
    assertThatThrownBy(() -> definitions.create(request, 0))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(v -> v.field())
                    .containsExactly("cron", "zone", "misfire", "maxRetries"));
    assertThat(store().find(name("bad"))).isEmpty();
  }
}
