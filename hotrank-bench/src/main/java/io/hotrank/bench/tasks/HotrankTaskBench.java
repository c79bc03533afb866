package io.hotrank.bench.tasks;

import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.storage.SqlDialect;
import io.hotrank.task.StandaloneTaskEngines;
import io.hotrank.task.TaskEngine;
import io.hotrank.task.TaskFences;
import io.hotrank.task.TaskHistory;
import io.hotrank.task.TaskProperties;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * hotrank's task platform ({@code io.hotrank.task}) as a {@link BenchScheduler}: the service's own
 * {@link TaskEngine} and tables, outside Spring. One task row per execution, due now, on a one-day
 * interval so that it runs once here; the task names its kind's job and carries the execution id in
 * its parameters. Due rows are claimed in batches ({@code FOR UPDATE SKIP LOCKED}: one statement on
 * PostgreSQL, a transaction of two on MariaDB); completions finishing together share a transaction
 * (on PostgreSQL one JDBC batch of one statement each, on MariaDB one update for the group and one
 * insert per history table).
 *
 * <p>What differs from db-scheduler's tasks, on purpose: the stall task writes its end through
 * {@link TaskFences} (the row locked, its version checked), as a job of the platform that must not
 * duplicate its effect is meant to; and a run is cancelled cooperatively (the engine has no thread
 * interrupts), so the long task's job interrupts its own thread when its run is cancelled. No
 * per-run log line or timer: the engine as {@link StandaloneTaskEngines#create} builds it.
 */
public final class HotrankTaskBench implements BenchScheduler {

  /** A mode per history setting ({@code hotrank.task.history}): {@code history-failures}, say. */
  private static final String MODE_PREFIX = "history-";

  private static final long DAY_MS = Duration.ofDays(1).toMillis();

  /**
   * A kind's executions not done yet (done: back to waiting, a day ahead), then the parameters job
   * and half a day from now. Written as ranges of the due index (statuses are waiting, running and
   * paused), so that it reads only the rows still pending, as db-scheduler's does (its rows are
   * deleted when done), and not the whole table.
   */
  private static final String PENDING =
      " FROM hr_task WHERE job = ? AND (status IN ('running', 'paused') OR (status = 'waiting' AND"
          + " next_time <= ?))";

  @Override
  public String name() {
    return "hotrank";
  }

  @Override
  public String version() {
    return TaskBench.mavenVersion("io.hotrank", "hotrank-server");
  }

  @Override
  public List<String> modes(BenchDb db) {
    return List.of(
        MODE_PREFIX + TaskHistory.FAILURES.name().toLowerCase(Locale.ROOT),
        MODE_PREFIX + TaskHistory.NONE.name().toLowerCase(Locale.ROOT),
        MODE_PREFIX + TaskHistory.ALL.name().toLowerCase(Locale.ROOT));
  }

  @Override
  public String describe(BenchDb db, String mode, InstanceSettings settings) {
    return String.format(
        Locale.ROOT,
        "claims with skip-locked, max-concurrent(%d), poll-interval(%d ms),"
            + " heartbeat-interval(%d ms), heartbeat-timeout(%d ms), shutdown-grace(%d ms),"
            + " history(%s, keep 20)",
        settings.threads(),
        settings.pollingInterval().toMillis(),
        settings.heartbeatInterval().toMillis(),
        settings.deadAfter().toMillis(),
        settings.shutdownWait().toMillis(),
        history(mode).name().toLowerCase(Locale.ROOT));
  }

  private static TaskHistory history(String mode) {
    return TaskHistory.valueOf(mode.substring(MODE_PREFIX.length()).toUpperCase(Locale.ROOT));
  }

  @Override
  public Duration takeoverBound(InstanceSettings settings) {
    // Heartbeat age limit, plus one poll (the poller's jitter is a tenth of it).
    return settings.deadAfter().plus(settings.pollingInterval().multipliedBy(2));
  }

  @Override
  public void resetTables(DataSource dataSource, BenchDb db) throws SQLException {
    // The bench database holds the other schedulers' tables too: hotrank's go in beside them.
    SqlDialect.detect(dataSource)
        .flyway(dataSource)
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .load()
        .migrate();
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("TRUNCATE TABLE hr_task");
      s.execute("TRUNCATE TABLE hr_task_run");
      s.execute("TRUNCATE TABLE hr_task_recent");
    }
  }

  @Override
  public void enqueue(DataSource dataSource, BenchDb db, Workload.Kind kind, List<String> ids)
      throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      long now;
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT " + SqlDialect.detect(dataSource).nowMillis())) {
        rs.next();
        now = rs.getLong(1);
      }
      c.setAutoCommit(false);
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO hr_task (name, job, zone, interval_ms, status, paused, next_time,"
                  + " misfire, timeout_ms, max_retries, retry_backoff_ms, parameters, source,"
                  + " created_at, updated_at) VALUES (?, ?, 'UTC', ?, 'waiting', 0, ?, 'skip', ?,"
                  + " 0, 1000, ?, 'api', ?, ?)")) {
        int batched = 0;
        for (String id : ids) {
          ps.setString(1, kind.taskName + "-" + id);
          ps.setString(2, kind.taskName);
          ps.setLong(3, DAY_MS);
          ps.setLong(4, now - (kind == Workload.Kind.WARMUP ? Duration.ofHours(1).toMillis() : 1));
          ps.setLong(5, Duration.ofHours(1).toMillis());
          ps.setString(6, "{\"id\":\"" + id + "\"}");
          ps.setLong(7, now);
          ps.setLong(8, now);
          ps.addBatch();
          if (++batched % 1000 == 0) {
            ps.executeBatch();
          }
        }
        ps.executeBatch();
      }
      c.commit();
      c.setAutoCommit(true);
      try (Statement s = c.createStatement()) {
        s.execute((db.isPostgres() ? "ANALYZE " : "ANALYZE TABLE ") + "hr_task");
      }
    }
  }

  @Override
  public long pending(Connection connection, BenchDb db, Workload.Kind kind) throws SQLException {
    return TaskBench.queryLong(
        connection,
        "SELECT COUNT(*)" + PENDING,
        kind.taskName,
        Instant.now().toEpochMilli() + DAY_MS / 2);
  }

  @Override
  public boolean anyPending(Connection connection, BenchDb db, Workload.Kind kind)
      throws SQLException {
    // One probe per range of the due index, each stopping at its first row of the kind: as one
    // WHERE, PostgreSQL read the table from its start, past every row already done.
    long horizon = Instant.now().toEpochMilli() + DAY_MS / 2;
    return TaskBench.queryLong(
            connection,
            "SELECT CASE WHEN EXISTS (SELECT 1 FROM hr_task WHERE status IN ('running', 'paused')"
                + " AND job = ?) OR EXISTS (SELECT 1 FROM hr_task WHERE status = 'waiting' AND"
                + " next_time <= ? AND job = ?) THEN 1 ELSE 0 END"
                + (db.isPostgres() ? "" : " FROM DUAL"),
            kind.taskName,
            horizon,
            kind.taskName)
        > 0;
  }

  @Override
  public Node node(
      DataSource dataSource,
      BenchDb db,
      String mode,
      String instanceName,
      InstanceSettings settings,
      Workload workload) {
    TaskFences fences =
        new TaskFences(new JdbcTemplate(dataSource), new DataSourceTransactionManager(dataSource));
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    List<Job> jobs = new ArrayList<>();
    for (Workload.Kind kind : Workload.Kind.values()) {
      jobs.add(new BenchJob(kind, workload, fences, jdbc, instanceName));
    }
    TaskEngine engine =
        StandaloneTaskEngines.create(
            dataSource,
            new TaskProperties(
                true,
                settings.pollingInterval(),
                settings.heartbeatInterval(),
                settings.deadAfter(),
                settings.threads(),
                Duration.ofDays(7),
                Duration.ofHours(1),
                0,
                Duration.ofSeconds(1),
                history(mode),
                20),
            instanceName,
            settings.shutdownWait(),
            jobs);
    return new Node() {
      @Override
      public void start() {
        engine.start();
      }

      @Override
      public void stop() {
        engine.stop();
      }
    };
  }

  /** The job of one kind: the execution id is in the task's parameters. */
  private record BenchJob(
      Workload.Kind kind, Workload workload, TaskFences fences, JdbcTemplate jdbc, String instance)
      implements Job {

    @Override
    public String name() {
      return kind.taskName;
    }

    @Override
    public void run(JobContext context) throws Exception {
      String parameters = context.parameters();
      String id = parameters.substring(parameters.indexOf(":\"") + 2, parameters.lastIndexOf('"'));
      switch (kind) {
        case NOOP, WARMUP -> workload.run(kind, id);
        case LONG -> interruptedWhenCancelled(context, () -> workload.run(kind, id));
        case STALL -> {
          workload.countExecution();
          workload.recordStart(id);
          Thread.sleep(workload.stallRun());
          context.throwIfCancelled();
          // The end, only while this run still owns its task: a run taken over writes nothing.
          fences.write(
              kind.taskName + "-" + id,
              context.fence(),
              () ->
                  jdbc.update(
                      "INSERT INTO "
                          + Workload.TABLE
                          + " (task_id, phase, instance, at_micros) VALUES (?, 'end', ?, ?)",
                      id,
                      instance,
                      Workload.micros(Instant.now())));
        }
      }
    }

    private static void interruptedWhenCancelled(JobContext context, Runnable work) {
      Thread worker = Thread.currentThread();
      Thread watcher =
          Thread.ofVirtual()
              .start(
                  () -> {
                    while (!Thread.currentThread().isInterrupted()) {
                      if (context.cancelled()) {
                        worker.interrupt();
                        return;
                      }
                      try {
                        Thread.sleep(20);
                      } catch (InterruptedException e) {
                        return;
                      }
                    }
                  });
      try {
        work.run();
      } finally {
        watcher.interrupt();
        Thread.interrupted(); // leave the worker thread clean for its next run
      }
    }
  }
}
