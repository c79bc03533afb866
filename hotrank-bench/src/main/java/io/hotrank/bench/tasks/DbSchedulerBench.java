package io.hotrank.bench.tasks;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MariaDBJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MySQL8JdbcCustomization;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;

/**
 * db-scheduler (com.github.kagkarlsson:db-scheduler) as a {@link BenchScheduler}: one one-time task
 * per {@link Workload.Kind}, on its documented single table {@value #TABLE}. Modes are its two
 * polling strategies, {@code lock-and-fetch} ({@code SELECT ... FOR UPDATE SKIP LOCKED}, the rows
 * come back already picked) and {@code fetch} (fetch-and-lock-on-execute: a plain select, then one
 * optimistic {@code UPDATE ... WHERE version = ?} per execution, which the instances compete for).
 *
 * <p>Both strategies take the same two fractions of the thread count: re-poll when at most {@code
 * lower * threads} executions are left in the instance, fetch up to {@code upper * threads}. The
 * default 4.0, 20.0 is the first configuration of db-scheduler's README benchmark (20 threads,
 * lower 4.0, upper 20.0: 10.6k/s lock-and-fetch, 2.0k/s fetch with four 2-core instances on a
 * 4-core PostgreSQL); {@code HOTRANK_BENCH_TASKS_DBS_LIMITS} overrides it (e.g. "0.5,3.0").
 *
 * <p>Dead executions: an instance writes a heartbeat every {@code heartbeatInterval} for each
 * execution it runs; every instance looks for executions whose heartbeat is older than {@code
 * heartbeatInterval * missedHeartbeatsLimit} every {@code 2 * heartbeatInterval} and revives them
 * (rescheduled to now, unpicked). The limit may not be below 4, so a requested dead-after shorter
 * than four heartbeats is rounded up to four.
 *
 * <p>MariaDB: db-scheduler 16.7.1's own MariaDB customization turns lock-and-fetch off (it throws
 * UnsupportedOperationException; its source says the syntax is to be fixed). Its MySQL 8
 * customization writes {@code ... LIMIT n FOR UPDATE SKIP LOCKED}, which MariaDB accepts from 10.6,
 * so lock-and-fetch on MariaDB runs with that one, set through the builder's public {@code
 * jdbcCustomization(...)}; fetch runs with the MariaDB one. Both persist timestamps in UTC, as
 * db-scheduler advises for MySQL and MariaDB.
 */
public final class DbSchedulerBench implements BenchScheduler {

  static final String TABLE = "scheduled_tasks";
  static final String LOCK_AND_FETCH = "lock-and-fetch";
  static final String FETCH = "fetch";

  /** db-scheduler refuses a lower missedHeartbeatsLimit. */
  static final int MIN_MISSED_HEARTBEATS = 4;

  private final double lowerFraction;
  private final double upperFraction;

  public DbSchedulerBench() {
    String[] limits =
        envOr("HOTRANK_BENCH_TASKS_DBS_LIMITS", "4.0,20.0").replace(" ", "").split(",");
    if (limits.length != 2) {
      throw new IllegalArgumentException("HOTRANK_BENCH_TASKS_DBS_LIMITS must be lower,upper");
    }
    lowerFraction = Double.parseDouble(limits[0]);
    upperFraction = Double.parseDouble(limits[1]);
  }

  @Override
  public String name() {
    return "db-scheduler";
  }

  @Override
  public String version() {
    return TaskBench.mavenVersion("com.github.kagkarlsson", "db-scheduler");
  }

  @Override
  public List<String> modes(BenchDb db) {
    return List.of(LOCK_AND_FETCH, FETCH);
  }

  @Override
  public String describe(BenchDb db, String mode, InstanceSettings settings) {
    int limit = missedHeartbeatsLimit(settings);
    return String.format(
        Locale.ROOT,
        "threads(%d), pollingInterval(%d ms), %s(%.1f, %.1f), heartbeatInterval(%d ms),"
            + " missedHeartbeatsLimit(%d) = dead after %d ms%s, dead-execution check every %d ms,"
            + " shutdownMaxWait(%d ms)%s",
        settings.threads(),
        settings.pollingInterval().toMillis(),
        mode.equals(LOCK_AND_FETCH) ? "pollUsingLockAndFetch" : "pollUsingFetchAndLockOnExecute",
        lowerFraction,
        upperFraction,
        settings.heartbeatInterval().toMillis(),
        limit,
        settings.heartbeatInterval().multipliedBy(limit).toMillis(),
        limit * settings.heartbeatInterval().toMillis() > settings.deadAfter().toMillis()
            ? " (" + settings.deadAfter().toMillis() + " ms asked; 4 is the minimum limit)"
            : "",
        settings.heartbeatInterval().multipliedBy(2).toMillis(),
        settings.shutdownWait().toMillis(),
        db.isPostgres()
            ? ""
            : mode.equals(LOCK_AND_FETCH)
                ? ", jdbcCustomization(MySQL8JdbcCustomization(UTC)): db-scheduler's MariaDB one"
                    + " has lock-and-fetch off"
                : ", jdbcCustomization(MariaDBJdbcCustomization(UTC))");
  }

  @Override
  public Duration takeoverBound(InstanceSettings settings) {
    // Heartbeat age limit, plus one period of the dead-execution check, plus one poll.
    Duration heartbeat = settings.heartbeatInterval();
    return heartbeat
        .multipliedBy(missedHeartbeatsLimit(settings))
        .plus(heartbeat.multipliedBy(2))
        .plus(settings.pollingInterval());
  }

  @Override
  public void resetTables(DataSource dataSource, BenchDb db) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      // The DDL of db-scheduler's own test resources (postgresql_tables.sql, mariadb_tables.sql).
      if (db.isPostgres()) {
        s.execute(
            "CREATE TABLE IF NOT EXISTS "
                + TABLE
                + " (task_name TEXT NOT NULL, task_instance TEXT NOT NULL, task_data BYTEA,"
                + " execution_time TIMESTAMP WITH TIME ZONE NOT NULL, picked BOOLEAN NOT NULL,"
                + " picked_by TEXT, last_success TIMESTAMP WITH TIME ZONE,"
                + " last_failure TIMESTAMP WITH TIME ZONE, consecutive_failures INT,"
                + " last_heartbeat TIMESTAMP WITH TIME ZONE, version BIGINT NOT NULL,"
                + " priority SMALLINT, PRIMARY KEY (task_name, task_instance))");
        s.execute(
            "CREATE INDEX IF NOT EXISTS execution_time_idx ON " + TABLE + " (execution_time)");
        s.execute(
            "CREATE INDEX IF NOT EXISTS last_heartbeat_idx ON " + TABLE + " (last_heartbeat)");
        s.execute(
            "CREATE INDEX IF NOT EXISTS priority_execution_time_idx ON "
                + TABLE
                + " (priority DESC, execution_time ASC)");
      } else {
        s.execute(
            "CREATE TABLE IF NOT EXISTS "
                + TABLE
                + " (task_name VARCHAR(100) NOT NULL, task_instance VARCHAR(100) NOT NULL,"
                + " task_data BLOB, execution_time TIMESTAMP(6) NOT NULL, picked BOOLEAN NOT NULL,"
                + " picked_by VARCHAR(50), last_success TIMESTAMP(6) NULL,"
                + " last_failure TIMESTAMP(6) NULL, consecutive_failures INT,"
                + " last_heartbeat TIMESTAMP(6) NULL, version BIGINT NOT NULL, priority SMALLINT,"
                + " PRIMARY KEY (task_name, task_instance),"
                + " INDEX execution_time_idx (execution_time),"
                + " INDEX last_heartbeat_idx (last_heartbeat),"
                + " INDEX priority_execution_time_idx (priority DESC, execution_time ASC))");
      }
      s.execute("TRUNCATE TABLE " + TABLE);
    }
  }

  @Override
  public void enqueue(DataSource dataSource, BenchDb db, Workload.Kind kind, List<String> ids)
      throws SQLException {
    Map<Workload.Kind, OneTimeTask<Void>> tasks = tasks(null);
    SchedulerClient client =
        SchedulerClient.Builder.create(dataSource, List.copyOf(tasks.values()))
            .jdbcCustomization(clientCustomization(db))
            .build();
    OneTimeTask<Void> task = tasks.get(kind);
    // scheduleBatch: JDBC batches of inserts, the fastest way db-scheduler offers to enqueue.
    Instant due =
        Instant.now().minus(kind == Workload.Kind.WARMUP ? Duration.ofHours(1) : Duration.ZERO);
    client.scheduleBatch(ids.stream().<TaskInstance<?>>map(task::instance).toList(), due);
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute((db.isPostgres() ? "ANALYZE " : "ANALYZE TABLE ") + TABLE);
    }
  }

  @Override
  public long pending(Connection connection, BenchDb db, Workload.Kind kind) throws SQLException {
    // A one-time execution's row is deleted when it completes.
    return TaskBench.queryLong(
        connection, "SELECT COUNT(*) FROM " + TABLE + " WHERE task_name = ?", kind.taskName);
  }

  @Override
  public boolean anyPending(Connection connection, BenchDb db, Workload.Kind kind)
      throws SQLException {
    return TaskBench.queryLong(
            connection,
            "SELECT COUNT(*) FROM (SELECT 1 FROM " + TABLE + " WHERE task_name = ? LIMIT 1) p",
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
    SchedulerBuilder builder =
        Scheduler.create(dataSource, List.<Task<?>>copyOf(tasks(workload).values()))
            .schedulerName(new SchedulerName.Fixed(instanceName))
            .threads(settings.threads())
            .pollingInterval(settings.pollingInterval())
            .heartbeatInterval(settings.heartbeatInterval())
            .missedHeartbeatsLimit(missedHeartbeatsLimit(settings))
            .shutdownMaxWait(settings.shutdownWait());
    switch (mode) {
      case LOCK_AND_FETCH -> builder.pollUsingLockAndFetch(lowerFraction, upperFraction);
      case FETCH -> builder.pollUsingFetchAndLockOnExecute(lowerFraction, upperFraction);
      default -> throw new IllegalArgumentException("Unknown db-scheduler mode: " + mode);
    }
    if (!db.isPostgres()) {
      builder.jdbcCustomization(
          mode.equals(LOCK_AND_FETCH)
              ? new MySQL8JdbcCustomization(true)
              : new MariaDBJdbcCustomization(true));
    }
    Scheduler scheduler = builder.build();
    return new Node() {
      @Override
      public void start() {
        scheduler.start();
      }

      @Override
      public void stop() {
        scheduler.stop();
      }
    };
  }

  /** One one-time task per kind; a null workload gives tasks for enqueueing only. */
  private static Map<Workload.Kind, OneTimeTask<Void>> tasks(Workload workload) {
    Map<Workload.Kind, OneTimeTask<Void>> tasks = new EnumMap<>(Workload.Kind.class);
    for (Workload.Kind kind : Workload.Kind.values()) {
      tasks.put(
          kind,
          Tasks.oneTime(kind.taskName)
              .execute(
                  (instance, context) -> {
                    if (workload == null) {
                      throw new IllegalStateException("The coordinator executes nothing");
                    }
                    workload.run(kind, instance.getId());
                  }));
    }
    return tasks;
  }

  private static JdbcCustomization clientCustomization(BenchDb db) {
    // Null lets PostgreSQL be auto-detected, as in the instances.
    return db.isPostgres() ? null : new MariaDBJdbcCustomization(true);
  }

  static int missedHeartbeatsLimit(InstanceSettings settings) {
    long heartbeat = settings.heartbeatInterval().toMillis();
    long wanted = (settings.deadAfter().toMillis() + heartbeat - 1) / heartbeat;
    return (int) Math.max(MIN_MISSED_HEARTBEATS, wanted);
  }

  private static String envOr(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
