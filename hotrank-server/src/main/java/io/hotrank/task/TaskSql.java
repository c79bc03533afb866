package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import java.sql.Connection;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.springframework.dao.IncorrectUpdateSemanticsDataAccessException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The task store's statements that no single SQL text serves on every engine: claiming due tasks in
 * a batch and writing runs' completions. The portable way is here, used as it is on H2 and
 * MySQL/MariaDB; PostgreSQL's single statements override it ({@link PostgresTaskSql}), and so do
 * MySQL/MariaDB's statements for a group of completions ({@link MySqlTaskSql}). Every time comes
 * from the database's clock, read inside the statement or, for a batch claim's update, by the
 * locking read just before it in the same transaction; every write of a run's end holds only while
 * the row carries the run's fence. Thread-safe.
 *
 * <p>The portable way: a batch claim is a transaction of two statements, since H2 takes no {@code
 * FOR UPDATE} in a subquery and MySQL's {@code UPDATE} returns no rows and takes no {@code LIMIT}
 * in a subquery on its own table. It runs at {@code READ COMMITTED} (H2's default): under InnoDB's
 * {@code REPEATABLE READ} its locking read would also lock the gaps and every row it scans, holding
 * up other instances' completions until it commits. A completion is two statements in one
 * transaction (no writing {@code WITH}); a group of completions, each completion's statements in
 * one transaction (see {@link #completeAll}).
 */
sealed class TaskSql permits MySqlTaskSql, PostgresTaskSql {

  /** The columns of a history row, in {@code hr_task_run} and {@code hr_task_recent} alike. */
  static final String HISTORY_COLUMNS =
      "task_name, fire_time, started_at, ended_at, outcome, owner, fence, attempt, manual, error";

  /** The database's time in epoch milliseconds, as a SQL expression. */
  final String now;

  /** A task {@link #claimDue} takes: due, and not asked for over HTTP. */
  final String due;

  /**
   * A completion's move of its task, only while the row carries the run's fence. A schedule changed
   * over the API while the run went on wins over what the run computed.
   */
  final String completeTask;

  /** A completion's history row, read from the task row named after {@code FROM}. */
  final String completeRun;

  /** The engine, whose form of upsert the ring's writes take ({@link #upsertRecent}). */
  private final SqlDialect dialect;

  /** Which runs are kept, and where. */
  final TaskHistory history;

  /** How many successful runs a task's ring keeps. */
  final int keep;

  final JdbcTemplate jdbc;

  /**
   * Claims, with a one-second timeout: a claim waits for no lock (a row held by a stalled
   * instance's fenced write, say); it fails, and the poller goes on with the other rows.
   */
  final JdbcTemplate claims;

  /**
   * Grouped completions, with a short timeout (set per group, {@link #completeAll}): a group that
   * meets a row held locked fails fast, and each of its completions is written alone ({@link
   * Completions}).
   */
  final JdbcTemplate grouped;

  final TransactionTemplate tx;

  /** The batch claim's transaction where it takes several statements, and a group's. */
  final TransactionTemplate claimTx;

  /** The statements of the engine {@code dialect} names. */
  static TaskSql of(
      SqlDialect dialect,
      JdbcTemplate jdbc,
      TransactionTemplate tx,
      TaskHistory history,
      int keep) {
    return switch (dialect.name()) {
      case "PostgreSQL" -> new PostgresTaskSql(dialect, jdbc, tx, history, keep);
      case "MySQL", "MariaDB" ->
          new MySqlTaskSql(dialect, jdbc, tx, history, keep, !poolReadCommitted(jdbc));
      // READ COMMITTED is H2's default: asking for it would cost a round trip to read the level,
      // over TCP, per transaction.
      case "H2" -> new TaskSql(dialect, jdbc, tx, history, keep, false);
      default -> throw new IllegalStateException("No task statements for " + dialect.name());
    };
  }

  /**
   * Whether the pool hands out connections at {@code READ COMMITTED} already, as application.yml
   * sets it: a transaction that asked for the level anyway would still cost a round trip on MySQL
   * Connector/J, which reads the level from the server before deciding to set nothing.
   */
  private static boolean poolReadCommitted(JdbcTemplate jdbc) {
    try {
      return Boolean.TRUE.equals(
          jdbc.execute(
              (ConnectionCallback<Boolean>)
                  c -> c.getTransactionIsolation() == Connection.TRANSACTION_READ_COMMITTED));
    } catch (RuntimeException e) {
      return false; // ask per transaction, to be safe
    }
  }

  /**
   * @param readCommittedClaims whether a batch claim's transaction asks for {@code READ COMMITTED}
   *     (on MySQL/MariaDB when the pool's connections are at another level: set and reset per
   *     transaction)
   */
  TaskSql(
      SqlDialect dialect,
      JdbcTemplate jdbc,
      TransactionTemplate tx,
      TaskHistory history,
      int keep,
      boolean readCommittedClaims) {
    this.dialect = dialect;
    this.history = history;
    this.keep = keep;
    this.jdbc = jdbc;
    this.claims = new JdbcTemplate(Objects.requireNonNull(jdbc.getDataSource()));
    this.claims.setQueryTimeout(1);
    this.grouped = new JdbcTemplate(jdbc.getDataSource());
    this.grouped.setQueryTimeout(1);
    this.tx = tx;
    this.claimTx = new TransactionTemplate(Objects.requireNonNull(tx.getTransactionManager()));
    if (readCommittedClaims) {
      this.claimTx.setIsolationLevel(TransactionTemplate.ISOLATION_READ_COMMITTED);
    }
    this.now = dialect.nowMillis();
    this.due = "status = 'waiting' AND paused = 0 AND triggered = 0 AND next_time <= " + now;
    this.completeTask =
        "UPDATE hr_task SET "
            + moveTask("", value -> "?")
            + " WHERE name = ? AND version = ? AND status = 'running'";
    this.completeRun =
        "INSERT INTO hr_task_run ("
            + HISTORY_COLUMNS
            + ") SELECT name, fire_time, started_at, "
            + now
            + ", ?, ?, ?, ?, manual, ? FROM ";
  }

  /**
   * The {@code SET} of a completion's move of its task, in the order of {@link #taskArgs}: {@code
   * value} gives each of the completion's values by name ({@code ?} where bound one by one), and
   * {@code t} prefixes the task's columns. A schedule changed over the API while the run went on
   * wins over what the run computed.
   */
  final String moveTask(String t, UnaryOperator<String> value) {
    String changed = t + "rescheduled_at > " + t + "started_at";
    return "run_count = "
        + t
        + "run_count + "
        + value.apply("ring")
        + ", status = CASE WHEN "
        + t
        + "paused = 1 THEN 'paused' ELSE 'waiting' END, next_time = CASE WHEN "
        + changed
        + " THEN "
        + t
        + "next_time WHEN "
        + value.apply("retry")
        + " = 1 THEN "
        + now
        + " + "
        + value.apply("retry_ms")
        + " WHEN "
        + value.apply("keep_next")
        + " = 1 THEN "
        + t
        + "next_time ELSE "
        + value.apply("next_time")
        + " END, attempt = CASE WHEN "
        + changed
        + " THEN 0 ELSE "
        + value.apply("attempt")
        + " END, cycle_time = CASE WHEN "
        + changed
        + " THEN 0 WHEN "
        + value.apply("keep_cycle")
        + " = 1 THEN "
        + t
        + "cycle_time ELSE "
        + value.apply("cycle_time")
        + " END, triggered = CASE WHEN "
        + value.apply("retrigger")
        + " = 1 THEN 1 ELSE "
        + t
        + "triggered END, consecutive_failures = CASE WHEN "
        + value.apply("succeeded")
        + " = 1 THEN 0 WHEN "
        + value.apply("failed")
        + " = 1 THEN "
        + t
        + "consecutive_failures + 1 ELSE "
        + t
        + "consecutive_failures END";
  }

  /**
   * A completion's row in its task's ring of recent runs, read from {@code source} (a table or
   * {@code WITH} name and its conditions, carrying the task's new {@code run_count}): over the slot
   * {@code run_count mod keep}, inserted or overwritten. Its parameters: the ring's size, then
   * those of {@link #completeRun}.
   */
  String completeRecent(String source) {
    String select =
        " SELECT name, MOD(run_count, ?), fire_time, started_at, "
            + now
            + ", ?, ?, ?, ?, manual, ? FROM "
            + source;
    return upsertRecent(select);
  }

  /** Inserts the rows {@code select} gives into {@code hr_task_recent}, overwriting their slots. */
  final String upsertRecent(String select) {
    List<String> overwritten =
        List.of(
            "fire_time",
            "started_at",
            "ended_at",
            "outcome",
            "owner",
            "fence",
            "attempt",
            "manual",
            "error");
    List<String> columns = new ArrayList<>(List.of("task_name", "slot"));
    columns.addAll(overwritten);
    return dialect.upsertFromSelect(
        "hr_task_recent", columns, List.of("task_name", "slot"), overwritten, select.strip());
  }

  /**
   * The next fence: the version plus one, never below the database's clock in microseconds, as a
   * lease's fence is ({@link io.hotrank.lock.JdbcLeaseStore}), so that a job's tokens keep growing
   * when it moves between the lease and the task engine.
   */
  final String fenceAfter() {
    return "GREATEST(version + 1, " + now + " * 1000)";
  }

  /**
   * Locks up to {@code limit} due tasks of the given jobs, earliest first, passing over rows locked
   * elsewhere, and reads {@code columns} of them.
   *
   * @param limit how many, in SQL: {@code ?} or a number
   */
  final String pickDue(String columns, int jobs, String limit) {
    return "SELECT "
        + columns
        + " FROM hr_task WHERE job IN ("
        + SqlDialect.placeholders(jobs)
        + ") AND "
        + due
        + " ORDER BY next_time LIMIT "
        + limit
        + " FOR UPDATE SKIP LOCKED";
  }

  /**
   * Claims up to {@code limit} due tasks (see {@link TaskStore#claimDue}): here one transaction of
   * two statements. The first locks the rows and reads them with the database's time; the second
   * claims them all with that time. The rows are held locked in between, so the claimed rows are
   * known without reading them back: each as it was, running from that time, its fence {@link
   * #fenceAfter} of its version.
   */
  List<TaskRow> claimDue(List<String> jobs, String owner, int limit) {
    List<Object> pickArgs = new ArrayList<>(jobs);
    pickArgs.add(limit);
    List<TaskRow> claimed =
        claimTx.execute(
            status -> {
              long[] dbNow = {Long.MIN_VALUE};
              List<TaskRow> locked =
                  claims.query(
                      // With the database's time: the claim's update writes it.
                      pickDue(
                          TaskColumns.TASK_COLUMNS + ", " + now + " AS db_now", jobs.size(), "?"),
                      (row, i) -> {
                        dbNow[0] = Math.max(dbNow[0], row.getLong("db_now"));
                        return TaskColumns.TASK.mapRow(row, i);
                      },
                      pickArgs.toArray());
              if (locked.isEmpty()) {
                return List.of();
              }
              long now = dbNow[0];
              // The fence bound as one value: H2 would type "? * 1000" as the literal's INTEGER.
              List<Object> args = new ArrayList<>(List.of(now, now, owner, now * 1000));
              locked.forEach(row -> args.add(row.name()));
              int updated =
                  claims.update(
                      "UPDATE hr_task SET manual = 0, fire_time = CASE WHEN cycle_time > 0 THEN"
                          + " cycle_time ELSE next_time END, started_at = ?, heartbeat = ?, owner"
                          + " = ?, version = GREATEST(version + 1, ?), status = 'running'"
                          + " WHERE name IN ("
                          + SqlDialect.placeholders(locked.size())
                          + ")",
                      args.toArray());
              if (updated != locked.size()) {
                throw new IncorrectUpdateSemanticsDataAccessException(
                    "Claimed " + updated + " of the " + locked.size() + " due tasks locked");
              }
              return locked.stream().map(row -> row.claimedBy(owner, now)).toList();
            });
    return claimed == null ? List.of() : claimed;
  }

  /**
   * Records a run's end and moves its task (see {@link TaskStore#complete}): here two statements in
   * one transaction (one where no history is kept).
   */
  boolean complete(Completion done) {
    return Boolean.TRUE.equals(tx.execute(status -> write(jdbc, done)));
  }

  /**
   * Records several runs' ends in one transaction (see {@link TaskStore#completeAll}): here each
   * completion's statements, one completion after the other.
   */
  boolean[] completeAll(List<Completion> completions) {
    boolean[] written = new boolean[completions.size()];
    inOneGroup(
        completions,
        order -> {
          for (int i : order) {
            written[i] = write(grouped, completions.get(i));
          }
        });
    return written;
  }

  private static Object[] prepend(Object first, Object[] rest) {
    Object[] all = new Object[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  /**
   * Runs {@code group} in one transaction with the statement timeout of a group, handing it the
   * indexes of the completions in the order of their tasks' names (two writers lock rows in one
   * order).
   */
  final void inOneGroup(List<Completion> completions, java.util.function.Consumer<int[]> group) {
    int[] order = lockOrder(completions);
    claimTx.executeWithoutResult(status -> group.accept(order));
  }

  /**
   * The indexes of the completions in the order of their tasks' names (two writers lock rows in one
   * order), once the group's statement timeout is set.
   */
  final int[] lockOrder(List<Completion> completions) {
    Integer[] sorted = new Integer[completions.size()];
    Arrays.setAll(sorted, i -> i);
    Arrays.sort(sorted, Comparator.comparing((Integer i) -> completions.get(i).task()));
    // A second of statement time per 32 completions: a busy database does not fail a large group.
    grouped.setQueryTimeout(1 + completions.size() / 32); // the group writer is its only user
    return Arrays.stream(sorted).mapToInt(Integer::intValue).toArray();
  }

  /** The completions in the order {@code order} gives (their indexes). */
  static List<Completion> inOrder(List<Completion> completions, int[] order) {
    List<Completion> group = new ArrayList<>();
    for (int i : order) {
      group.add(completions.get(i));
    }
    return group;
  }

  /** A completion's statements, in the caller's transaction. */
  private boolean write(JdbcTemplate jdbc, Completion done) {
    if (jdbc.update(completeTask, taskArgs(done).toArray()) == 0) {
      return false;
    }
    List<Object> args = new ArrayList<>(historyArgs(done));
    args.add(done.task());
    switch (history.destination(done.outcome())) {
      case RUNS -> jdbc.update(completeRun + "hr_task WHERE name = ?", args.toArray());
      case RECENT ->
          jdbc.update(completeRecent("hr_task WHERE name = ?"), prepend(keep, args.toArray()));
      case NOWHERE -> {}
    }
    return true;
  }

  /** The parameters of {@link #completeTask}. */
  final List<Object> taskArgs(Completion done) {
    return Arrays.asList(
        history.destination(done.outcome()) == TaskHistory.Destination.RECENT ? 1 : 0,
        done.retryDelayMs() == null ? 0 : 1,
        done.retryDelayMs() == null ? 0L : done.retryDelayMs(),
        done.nextTime() == null ? 1 : 0,
        done.nextTime() == null ? 0L : done.nextTime(),
        done.attempt(),
        done.cycleTime() == null ? 1 : 0,
        done.cycleTime() == null ? 0L : done.cycleTime(),
        done.retrigger() ? 1 : 0,
        done.succeeded() ? 1 : 0,
        done.failed() ? 1 : 0,
        done.task(),
        done.fence());
  }

  /**
   * The parameters of {@link #completeRun}, before its source's. The error is typed: a null of
   * unknown type makes Spring ask the driver for the statement's parameter metadata, which MariaDB
   * Connector/J answers with a server-side prepare, a round trip and a parse per statement.
   */
  static List<Object> historyArgs(Completion done) {
    return Arrays.asList(
        done.outcome(),
        done.owner(),
        done.fence(),
        done.runAttempt(),
        new SqlParameterValue(Types.VARCHAR, TaskColumns.truncate(done.error())));
  }
}
