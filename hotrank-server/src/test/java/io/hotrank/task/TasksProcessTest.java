package io.hotrank.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.H2ServerProcess;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Chaos on the task platform: three instances as separate processes on one database (an H2 server
 * process of the test's own), one of them with its wall clock ten minutes ahead (libfaketime, when
 * installed). Twenty tasks fire every second, half under each misfire policy, each run working 600
 * ms. Once every task has run, instance {@code a} is {@code kill -9}-ed in the middle of a run;
 * once its runs are taken over, instance {@code c} is {@code kill -STOP}-ped in the middle of one
 * and resumed only once that run, past the 2 s heartbeat timeout, is taken over; once {@code c}
 * works again and ten more seconds of fire times have passed, every task is paused. Each step
 * waits, within a bound, for what the database shows, not for a time. The record checked: {@code
 * hr_task_run}, and the probe job's own effects ({@link ProbeJobs}) with the database's times, its
 * end written through a fenced write.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("process")
@Isolated // its assertions count looks or bound heartbeats in seconds: run alone
class TasksProcessTest {

  private static final int TASKS = 20;

  /** The H2 server's clock in epoch milliseconds, as the platform reads it. */
  private static final String H2_NOW =
      "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)";

  /**
   * How long the tasks keep firing after the stalled instance resumes, before they are paused:
   * every fault happened by then, and the checks below cover every fire time from the first to the
   * pause.
   */
  private static final Duration SETTLE = Duration.ofSeconds(10);

  private static final Pattern SKIPPED_UNTIL = Pattern.compile("next at (\\S+)$");

  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  private JdbcTemplate jdbc;
  private final Map<String, ServiceProcess> instances = new LinkedHashMap<>();
  private boolean clockSkewed;

  record Effect(String task, long fireTime, long fence, String owner, String phase, long at) {}

  record Run(
      String task,
      long fireTime,
      long startedAt,
      long endedAt,
      String outcome,
      String owner,
      long fence,
      String error) {}

  @BeforeAll
  void startProcesses() throws Exception {
    H2ServerProcess db = processes.h2Server();
    DriverManagerDataSource data = new DriverManagerDataSource(db.url(), "sa", "");
    jdbc = new JdbcTemplate(data);
    clockSkewed = Files.isExecutable(Path.of("/usr/bin/faketime"));
    List<ServiceProcesses.Instance> starting = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      ServiceProcesses.Instance instance = ServiceProcesses.instance(name).withArgs(args(name));
      starting.add(
          name.equals("b") && clockSkewed
              ? instance.withClockAhead(Duration.ofMinutes(10))
              : instance);
    }
    instances.putAll(processes.startTogether(starting));
  }

  private static List<String> args(String instance) throws Exception {
    List<String> args = new ArrayList<>(processes.engineArgs());
    args.addAll(
        List.of(
            "--hotrank.instance-id=" + instance,
            "--hotrank.board.scheduling=false",
            "--hotrank.task.poll-interval=500ms",
            "--hotrank.task.heartbeat-interval=500ms",
            "--hotrank.task.heartbeat-timeout=2s",
            "--hotrank.task.max-concurrent=8",
            // The checks below read every run's row, successful ones included.
            "--hotrank.task.history=all",
            "--hotrank-test.probe-tasks=true"));
    return args;
  }

  private static String taskName(int i) {
    return "chaos-" + i;
  }

  @Test
  void killAndStall_noConcurrentRuns_noCompletionByANonOwner_everyFireTimeCovered()
      throws Exception {
    HttpJson a = instances.get("a").http();
    for (int i = 0; i < TASKS; i++) {
      String misfire = i % 2 == 0 ? "skip" : "fire-once";
      Answer created =
          a.post(
              "/api/v1/admin/tasks",
              "{\"name\":\""
                  + taskName(i)
                  + "\",\"job\":\"probe\",\"cron\":\"* * * * * *\",\"misfire\":\""
                  + misfire
                  + "\",\"maxRetries\":0,\"parameters\":{\"task\":\""
                  + taskName(i)
                  + "\",\"workMs\":600}}",
              a.adminHeader());
      assertThat(created.status()).as(created.body()).isEqualTo(201);
    }
    long started = System.nanoTime();
    // Each fault waits for the state it is meant to hit, on the database, within a bound.
    await("every task ran, a among the runners")
        .atMost(Duration.ofSeconds(40))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                count(
                            "SELECT COUNT(DISTINCT task_name) FROM hr_task_run WHERE task_name LIKE"
                                + " 'chaos-%' AND outcome = 'succeeded'")
                        == TASKS
                    && count(
                            "SELECT COUNT(*) FROM hr_task_run WHERE owner = 'a' AND outcome ="
                                + " 'succeeded'")
                        > 0);
    whileRunning("a"); // a fault that hits no run would prove nothing
    instances.get("a").signal("KILL");
    await("a's runs taken over")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                count("SELECT COUNT(*) FROM hr_task WHERE owner = 'a' AND status = 'running'")
                    == 0);
    whileRunning("c");
    instances.get("c").signal("STOP");
    // Stalled past the heartbeat timeout: c's runs are taken over (judged on the database's
    // clock), which c learns when it wakes; the one that started just before the stop is at work,
    // holding no lock, and is taken over for sure. (A run of c stopped inside a transaction, its
    // fenced write or its completion, keeps its row locked until c resumes, and with it its claim.)
    List<String> held =
        jdbc.queryForList(
            "SELECT name || '/' || version FROM hr_task WHERE owner = 'c' AND status = 'running'",
            String.class);
    assertThat(held).isNotEmpty();
    await("a run of c taken over while c is stopped")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                jdbc
                    .queryForList(
                        "SELECT task_name || '/' || fence FROM hr_task_run WHERE outcome ="
                            + " 'abandoned' AND owner = 'c'",
                        String.class)
                    .stream()
                    .anyMatch(held::contains));
    instances.get("c").signal("CONT");
    long resumed = dbNow();
    await("c back at work, and fire times " + SETTLE + " past its return")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                count(
                            "SELECT COUNT(*) FROM hr_task_run WHERE owner = 'c' AND outcome ="
                                + " 'succeeded' AND started_at > ?",
                            resumed + 2000)
                        > 0
                    && count(
                            "SELECT MAX(fire_time) FROM hr_task_run WHERE task_name LIKE"
                                + " 'chaos-%'")
                        >= resumed + SETTLE.toMillis());
    HttpJson b = instances.get("b").http();
    long pauseFrom = dbNow();
    for (int i = 0; i < TASKS; i++) {
      assertThat(
              b.post("/api/v1/admin/tasks/" + taskName(i) + "/pause", "", b.adminHeader()).status())
          .isEqualTo(200);
    }
    long pausing = System.nanoTime();
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                jdbc.queryForObject(
                        "SELECT COUNT(*) FROM hr_task WHERE name LIKE 'chaos-%' AND status <>"
                            + " 'paused'",
                        Integer.class)
                    == 0);

    List<Effect> effects =
        jdbc.query(
            "SELECT task, fire_time, fence, owner, phase, at_ms FROM probe_effect",
            (r, n) ->
                new Effect(
                    r.getString(1),
                    r.getLong(2),
                    r.getLong(3),
                    r.getString(4),
                    r.getString(5),
                    r.getLong(6)));
    List<Run> runs =
        jdbc.query(
            "SELECT task_name, fire_time, started_at, ended_at, outcome, owner, fence, error FROM"
                + " hr_task_run WHERE task_name LIKE 'chaos-%' ORDER BY id",
            (r, n) ->
                new Run(
                    r.getString(1),
                    r.getLong(2),
                    r.getLong(3),
                    r.getLong(4),
                    r.getString(5),
                    r.getString(6),
                    r.getLong(7),
                    r.getString(8)));
    String summary =
        summary(effects, runs)
            + "\nall paused "
            + (System.nanoTime() - pausing) / 1_000_000
            + " ms after the pause; test ran "
            + (System.nanoTime() - started) / 1_000_000
            + " ms";
    System.out.println("Chaos summary: " + summary.lines().findFirst().orElse(""));

    List<Run> abandoned = runs.stream().filter(r -> r.outcome().equals("abandoned")).toList();

    // 1. No two runs of one task overlapped: every run whose end was written (its fenced write
    // went through) ran alone from its start to its end.
    // Fences order the runs of one task; two tasks may share a value.
    Map<String, Effect> starts = new HashMap<>();
    effects.stream()
        .filter(e -> e.phase().equals("start"))
        .forEach(e -> starts.put(e.task() + "/" + e.fence(), e));
    Map<String, List<long[]>> intervals = new HashMap<>();
    for (Effect end : effects) {
      if (end.phase().equals("end")) {
        Effect start = starts.get(end.task() + "/" + end.fence());
        assertThat(start).as("start of %s", end).isNotNull();
        assertThat(start.owner()).as("owner of %s", end).isEqualTo(end.owner());
        intervals
            .computeIfAbsent(end.task(), t -> new ArrayList<>())
            .add(new long[] {start.at(), end.at(), end.fence()});
      }
    }
    intervals.forEach(
        (task, list) -> {
          list.sort((x, y) -> Long.compare(x[0], y[0]));
          for (int i = 1; i < list.size(); i++) {
            assertThat(list.get(i)[0])
                .as(
                    "%s: fence %d started before fence %d ended",
                    task, list.get(i)[2], list.get(i - 1)[2])
                .isGreaterThanOrEqualTo(list.get(i - 1)[1]);
          }
        });

    // 2. No completion recorded by a non-owner: each completion's fence and owner are those of a
    // run that started under that claim; no fence completes twice; a run taken over never
    // completes, and its fenced end, if written, came before the takeover.
    Set<String> recordedByRunner =
        Set.of("succeeded", "failed", "timed-out", "cancelled", "rejected");
    Set<String> completedFences = new TreeSet<>();
    for (Run run : runs) {
      if (recordedByRunner.contains(run.outcome())) {
        Effect start = starts.get(run.task() + "/" + run.fence());
        // A claim its runner gave up before starting it (no worker free within the wait, the
        // lease lost, the instance stopping: TaskRunner) is recorded cancelled "not started" by
        // its owner, and ran nothing.
        if (run.outcome().equals("cancelled")
            && run.error() != null
            && run.error().startsWith("not started")) {
          assertThat(start).as("start of never-started %s", run).isNull();
        } else {
          assertThat(start).as("claim of completion %s", run).isNotNull();
          assertThat(start.owner()).as("owner of %s", run).isEqualTo(run.owner());
        }
        assertThat(completedFences.add(run.task() + "/" + run.fence()))
            .as("second completion of %s", run)
            .isTrue();
      }
    }
    for (Run gone : abandoned) {
      assertThat(completedFences)
          .as("completion of abandoned %s", gone)
          .doesNotContain(gone.task() + "/" + gone.fence());
      effects.stream()
          .filter(
              e ->
                  e.phase().equals("end")
                      && e.task().equals(gone.task())
                      && e.fence() == gone.fence())
          .forEach(
              end ->
                  assertThat(end.at())
                      .as("fenced end of %s", gone)
                      .isLessThanOrEqualTo(gone.endedAt()));
    }
    assertThat(runs)
        .as(summary)
        .anyMatch(r -> r.outcome().equals("succeeded") && r.owner().equals("b"));
    // Every run that started is accounted for, under its own claim: completed by its owner, or
    // recorded abandoned by whoever took it over. A second claim of a task already claimed (a
    // broken compare-and-set) would leave a start that neither covers.
    Set<String> accounted = new TreeSet<>(completedFences);
    abandoned.forEach(r -> accounted.add(r.task() + "/" + r.fence()));
    List<String> unaccounted =
        starts.keySet().stream().filter(key -> !accounted.contains(key)).sorted().toList();
    assertThat(unaccounted).as(summary).isEmpty();

    // 3. Every fire time from a task's first to two seconds before the pause was run, or was
    // covered by its misfire policy: a run that started at or after it (fire-once, or a takeover
    // running an older fire time), or a fire time passed over while a run was in progress or by a
    // skip.
    Map<String, List<Run>> byTask = runs.stream().collect(Collectors.groupingBy(Run::task));
    List<String> uncovered = new ArrayList<>();
    for (int i = 0; i < TASKS; i++) {
      String task = taskName(i);
      boolean skip = i % 2 == 0;
      List<Run> history = byTask.getOrDefault(task, List.of());
      assertThat(history).as(task).isNotEmpty();
      long first = history.stream().mapToLong(Run::fireTime).min().orElseThrow();
      for (long fire = first; fire <= pauseFrom - 2000; fire += 1000) {
        if (!covered(history, fire, skip)) {
          long at = fire;
          uncovered.add(
              task
                  + "@"
                  + Instant.ofEpochMilli(fire)
                  + " near "
                  + history.stream()
                      .filter(r -> Math.abs(r.fireTime() - at) < 4000)
                      .map(
                          r ->
                              r.fireTime() % 100_000
                                  + "/"
                                  + r.startedAt() % 100_000
                                  + "-"
                                  + r.endedAt() % 100_000
                                  + " "
                                  + r.owner()
                                  + " "
                                  + r.outcome())
                      .toList());
        }
      }
    }
    assertThat(uncovered).as(summary).isEmpty();

    // Both faults hit runs in progress, which were taken over.
    assertThat(abandoned).as(summary).anyMatch(r -> r.owner().equals("a"));
    assertThat(abandoned).as(summary).anyMatch(r -> r.owner().equals("c"));
  }

  private static boolean covered(List<Run> history, long fire, boolean skip) {
    for (Run run : history) {
      boolean ranAfter =
          !run.outcome().equals("skipped") && run.fireTime() <= fire && fire <= run.startedAt();
      boolean passedDuringRun =
          skip
              && !run.outcome().equals("skipped")
              && run.fireTime() <= fire
              && fire <= run.endedAt();
      boolean skipped = false;
      if (run.outcome().equals("skipped") && run.error() != null) {
        Matcher until = SKIPPED_UNTIL.matcher(run.error());
        skipped =
            until.find()
                && run.fireTime() <= fire
                && fire < Instant.parse(until.group(1)).toEpochMilli();
      }
      if (ranAfter || passedDuringRun || skipped) {
        return true;
      }
    }
    return false;
  }

  private String summary(List<Effect> effects, List<Run> runs) {
    Map<String, Long> outcomes =
        runs.stream()
            .collect(
                Collectors.groupingBy(r -> r.owner() + ":" + r.outcome(), Collectors.counting()));
    StringBuilder warnings = new StringBuilder();
    instances.forEach(
        (name, process) ->
            process.lines().stream()
                .filter(line -> line.contains(" WARN ") || line.contains(" ERROR "))
                .limit(40)
                .forEach(line -> warnings.append("\n").append(name).append(": ").append(line)));
    return "clock of b skewed: "
        + clockSkewed
        + ", effects: "
        + effects.size()
        + ", runs by owner and outcome: "
        + new java.util.TreeMap<>(outcomes)
        + warnings;
  }

  /**
   * Returns as soon as the instance runs a task that started less than 200 ms ago, so that the
   * fault comes well before the run's end (runs work 600 ms).
   */
  private void whileRunning(String instance) {
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(10))
        .until(
            () ->
                jdbc.queryForObject(
                        "SELECT COUNT(*) FROM hr_task WHERE owner = ? AND status = 'running' AND"
                            + " started_at >= "
                            + H2_NOW
                            + " - 200",
                        Integer.class,
                        instance)
                    > 0);
  }

  private long dbNow() {
    return jdbc.queryForObject("SELECT " + H2_NOW, Long.class);
  }

  private long count(String sql, Object... args) {
    Long value = jdbc.queryForObject(sql, Long.class, args);
    return value == null ? 0 : value;
  }
}
