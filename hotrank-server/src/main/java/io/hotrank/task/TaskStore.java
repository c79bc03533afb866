package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code hr_task} and {@code hr_task_run}. Every comparison with the current time reads the
 * database's clock inside the statement ({@link SqlDialect#nowMillis()}), never an instance's. A
 * run is claimed by compare-and-set on the row's version, which becomes the run's fencing token;
 * its heartbeat and its completion are written only while the row still carries that version.
 * Thread-safe.
 */
final class TaskStore {

  private static final String COLUMNS =
      "name, job, cron, zone, interval_ms, status, paused, triggered, next_time, fire_time,"
          + " cycle_time, rescheduled_at, started_at, manual, attempt, heartbeat, version, owner, consecutive_failures,"
          + " misfire, timeout_ms, max_retries, retry_backoff_ms, parameters, source, created_at,"
          + " updated_at";

  private static final String RUN_COLUMNS =
      "id, task_name, fire_time, started_at, ended_at, outcome, owner, fence, attempt, manual,"
          + " error";

  /** Longest error summary kept in a history row. */
  private static final int ERROR_LENGTH = 1000;

  private static final RowMapper<TaskRow> TASK =
      (row, i) ->
          new TaskRow(
              row.getString("name"),
              row.getString("job"),
              row.getString("cron"),
              row.getString("zone"),
              nullableLong(row, "interval_ms"),
              row.getString("status"),
              row.getInt("paused") == 1,
              row.getInt("triggered") == 1,
              row.getLong("next_time"),
              row.getLong("fire_time"),
              row.getLong("cycle_time"),
              row.getLong("rescheduled_at"),
              row.getLong("started_at"),
              row.getInt("manual") == 1,
              row.getInt("attempt"),
              row.getLong("heartbeat"),
              row.getLong("version"),
              row.getString("owner"),
              row.getInt("consecutive_failures"),
              misfire(row.getString("misfire")),
              row.getLong("timeout_ms"),
              row.getInt("max_retries"),
              row.getLong("retry_backoff_ms"),
              row.getString("parameters"),
              row.getString("source"),
              row.getLong("created_at"),
              row.getLong("updated_at"));

  private static final RowMapper<TaskRun> RUN =
      (row, i) ->
          new TaskRun(
              row.getLong("id"),
              row.getString("task_name"),
              row.getLong("fire_time"),
              row.getLong("started_at"),
              row.getLong("ended_at"),
              row.getString("outcome"),
              row.getString("owner"),
              row.getLong("fence"),
              row.getInt("attempt"),
              row.getInt("manual") == 1,
              row.getString("error"));

  /**
   * Rows seen by a poll, and the database's time when it read them ({@link Long#MIN_VALUE} when it
   * read none: an empty poll costs no second statement for the time).
   */
  record Poll(List<TaskRow> rows, long now) {}

  /**
   * What a finished run writes.
   *
   * @param owner the instance that ran it (recorded as the run's owner)
   * @param nextTime the task's next fire time; null keeps it
   * @param retryDelayMs when not null, the next fire time is instead the database's now plus this
   *     (a retry, or a run due again at once), so that a delay is never shortened by an instance's
   *     estimate of the database's time
   * @param cycleTime the unfinished cycle's fire time to keep for its retry or re-run, 0 when the
   *     cycle is done, null to keep the column (a run asked for)
   * @param retrigger whether the run must be asked for again (a run asked for, cancelled)
   */
  record Completion(
      String task,
      long fence,
      String owner,
      String outcome,
      int runAttempt,
      @Nullable Long nextTime,
      @Nullable Long retryDelayMs,
      @Nullable Long cycleTime,
      boolean retrigger,
      int attempt,
      boolean succeeded,
      boolean failed,
      @Nullable String error) {}

  private final JdbcTemplate jdbc;

  /**
   * The heartbeat's statements, with a timeout below the heartbeat timeout ({@link #beatsTimeout}).
   */
  private final JdbcTemplate beats;

  /**
   * Claims, with a one-second timeout: a claim waits for no lock (a row held by a stalled
   * instance's fenced write, say); it fails, and the poller goes on with the other rows.
   */
  private final JdbcTemplate claims;

  /**
   * Grouped completions, with a short timeout (set per group, {@link #completeAll}): a group that
   * meets a row held locked fails fast, and each of its completions is written alone ({@link
   * Completions}).
   */
  private final JdbcTemplate grouped;

  private final SqlDialect dialect;
  private final TransactionTemplate tx;

  /**
   * The batch claim's transaction where it takes three statements, at {@code READ COMMITTED}: under
   * InnoDB's default {@code REPEATABLE READ} its locking read would also lock the gaps and every
   * row it scans, holding up other instances' completions until it commits.
   */
  private final TransactionTemplate claimTx;

  private final String now;

  /** A task {@link #claimDue} takes: due, and not asked for over HTTP. */
  private final String due;

  /** How many of a completion's parameters {@link #completeTask} takes. */
  private static final int COMPLETE_TASK_ARITY = 12;

  /**
   * A completion's move of its task, only while the row carries the run's fence. A schedule changed
   * over the API while the run went on wins over what the run computed.
   */
  private final String completeTask;

  /** A completion's history row, read from the task row named after {@code FROM}. */
  private final String completeRun;

  /**
   * Both in one statement (PostgreSQL): the insert sees only the row the update matched, one round
   * trip and one commit.
   */
  private final String completeInOne;

  /**
   * Whether due tasks may be claimed in batches where the engine can ({@link #claimsInBatches}).
   */
  private final boolean batches;

  TaskStore(JdbcTemplate jdbc, SqlDialect dialect, TransactionTemplate tx) {
    this(jdbc, dialect, tx, true);
  }

  /** With {@code batches} false, every claim is one row's compare-and-set (tests of that path). */
  TaskStore(JdbcTemplate jdbc, SqlDialect dialect, TransactionTemplate tx, boolean batches) {
    this.batches = batches;
    this.jdbc = jdbc;
    this.beats = new JdbcTemplate(java.util.Objects.requireNonNull(jdbc.getDataSource()));
    this.beats.setQueryTimeout(jdbc.getQueryTimeout());
    this.claims = new JdbcTemplate(jdbc.getDataSource());
    this.claims.setQueryTimeout(1);
    this.grouped = new JdbcTemplate(jdbc.getDataSource());
    this.grouped.setQueryTimeout(1);
    this.dialect = dialect;
    this.tx = tx;
    this.claimTx =
        new TransactionTemplate(java.util.Objects.requireNonNull(tx.getTransactionManager()));
    if (!dialect.supportsUpdateReturning()) {
      // PostgreSQL's default already; elsewhere set (and reset) per transaction.
      this.claimTx.setIsolationLevel(TransactionTemplate.ISOLATION_READ_COMMITTED);
    }
    this.now = dialect.nowMillis();
    this.due = "status = 'waiting' AND paused = 0 AND triggered = 0 AND next_time <= " + now;
    String changed = "rescheduled_at > started_at";
    this.completeTask =
        "UPDATE hr_task SET status = CASE WHEN paused = 1 THEN 'paused' ELSE 'waiting' END,"
            + " next_time = CASE WHEN "
            + changed
            + " THEN next_time WHEN ? = 1 THEN "
            + now
            + " + ? WHEN ? = 1 THEN next_time ELSE ? END, attempt = CASE WHEN "
            + changed
            + " THEN 0 ELSE ? END, cycle_time = CASE WHEN "
            + changed
            + " THEN 0 WHEN ? = 1 THEN cycle_time ELSE ? END, triggered = CASE WHEN ? = 1 THEN 1"
            + " ELSE triggered END, consecutive_failures = CASE WHEN ? = 1 THEN 0 WHEN ? = 1 THEN"
            + " consecutive_failures + 1 ELSE consecutive_failures END WHERE name = ? AND version ="
            + " ? AND status = 'running'";
    this.completeRun =
        "INSERT INTO hr_task_run (task_name, fire_time, started_at, ended_at, outcome, owner,"
            + " fence, attempt, manual, error) SELECT name, fire_time, started_at, "
            + now
            + ", ?, ?, ?, ?, manual, ? FROM ";
    this.completeInOne =
        "WITH done AS ("
            + completeTask
            + " RETURNING name, fire_time, started_at, manual) "
            + completeRun
            + "done";
  }

  long nowMillis() {
    return dialect.readNow(jdbc);
  }

  List<TaskRow> all() {
    return jdbc.query("SELECT " + COLUMNS + " FROM hr_task ORDER BY name", TASK);
  }

  Optional<TaskRow> find(String name) {
    return jdbc.query("SELECT " + COLUMNS + " FROM hr_task WHERE name = ?", TASK, name).stream()
        .findFirst();
  }

  /**
   * Inserts a task, waiting (or paused), due at {@code nextTime}.
   *
   * @return false if a task of that name exists (nothing changed)
   */
  boolean insert(TaskRow task) {
    return dialect.insertIgnoringDuplicate(
            jdbc,
            "hr_task",
            "name, job, cron, zone, interval_ms, status, paused, next_time, misfire, timeout_ms,"
                + " max_retries, retry_backoff_ms, parameters, source, created_at, updated_at",
            task.name(),
            task.job(),
            task.cron(),
            task.zone(),
            task.intervalMs(),
            task.paused() ? TaskRow.PAUSED : TaskRow.WAITING,
            task.paused() ? 1 : 0,
            task.nextTime(),
            task.misfire().configName(),
            task.timeoutMs(),
            task.maxRetries(),
            task.retryBackoffMs(),
            task.parameters(),
            task.source(),
            task.createdAt(),
            task.updatedAt())
        == 1;
  }

  /**
   * Replaces a task's definition. A run in progress keeps its claim and finishes under the old
   * definition. When the schedule changed ({@code rescheduled}), the next fire time is the given
   * one, the unfinished cycle and its retries are dropped, and a run in progress leaves the new
   * next fire time alone at its completion. A task not running moves to a new version, so that a
   * claim made on what an instance read before the change fails.
   *
   * @return false if no such task
   */
  boolean update(TaskRow task, boolean rescheduled) {
    List<Object> args = new ArrayList<>();
    if (rescheduled) {
      args.add(task.nextTime());
    }
    args.addAll(
        java.util.Arrays.asList(
            task.job(),
            task.cron(),
            task.zone(),
            task.intervalMs(),
            task.misfire().configName(),
            task.timeoutMs(),
            task.maxRetries(),
            task.retryBackoffMs(),
            task.parameters(),
            task.source(),
            task.name()));
    return jdbc.update(
            "UPDATE hr_task SET "
                + (rescheduled
                    ? "next_time = ?, attempt = 0, cycle_time = 0, rescheduled_at = " + now + ", "
                    : "")
                + "version = CASE WHEN status = 'running' THEN version ELSE version + 1 END,"
                + " job = ?, cron = ?, zone = ?, interval_ms = ?, misfire = ?, timeout_ms = ?,"
                + " max_retries = ?, retry_backoff_ms = ?, parameters = ?, source = ?,"
                + " updated_at = "
                + now
                + " WHERE name = ?",
            args.toArray())
        == 1;
  }

  boolean delete(String name) {
    return jdbc.update("DELETE FROM hr_task WHERE name = ?", name) == 1;
  }

  /** The run in progress finishes; no further run starts until {@link #resume}. */
  boolean pause(String name) {
    return jdbc.update(
            "UPDATE hr_task SET status = CASE WHEN status = 'running' THEN status ELSE 'paused'"
                + " END, paused = 1, updated_at = "
                + now
                + " WHERE name = ?",
            name)
        == 1;
  }

  /** Fire times missed while paused are then handled by the task's misfire policy. */
  boolean resume(String name) {
    return jdbc.update(
            "UPDATE hr_task SET status = CASE WHEN status = 'running' THEN status ELSE 'waiting'"
                + " END, paused = 0, updated_at = "
                + now
                + " WHERE name = ?",
            name)
        == 1;
  }

  /** Asks for a run now (after the run in progress, if any), paused or not. */
  boolean trigger(String name) {
    return jdbc.update(
            "UPDATE hr_task SET triggered = 1, updated_at = " + now + " WHERE name = ?", name)
        == 1;
  }

  /**
   * Tasks of the given jobs that are triggered, or running with a heartbeat older than {@code
   * heartbeatTimeoutMs} (first), those due within {@code horizonMs} (so the poller knows how long
   * to sleep), and those due, unless the poller claims them apart ({@code due} false), earliest
   * first.
   */
  Poll poll(List<String> jobs, long heartbeatTimeoutMs, long horizonMs, int limit, boolean due) {
    List<Object> args = new ArrayList<>(jobs);
    args.add(horizonMs);
    args.add(heartbeatTimeoutMs);
    args.add(limit);
    long[] dbNow = {Long.MIN_VALUE};
    List<TaskRow> rows =
        jdbc.query(
            "SELECT "
                + COLUMNS
                + ", "
                + now
                + " AS db_now FROM hr_task WHERE job IN ("
                + SqlDialect.placeholders(jobs.size())
                + ") AND ((status = 'waiting' AND paused = 0 AND next_time <= "
                + now
                + " + ?"
                + (due ? "" : " AND next_time > " + now)
                + ") OR (status <> 'running' AND triggered = 1) OR (status = 'running' AND"
                + " heartbeat <= "
                + now
                + " - ?)) ORDER BY CASE WHEN triggered = 1 OR status = 'running' THEN 0 ELSE 1 END,"
                + " next_time LIMIT ?",
            (row, i) -> {
              dbNow[0] = Math.max(dbNow[0], row.getLong("db_now"));
              return TASK.mapRow(row, i);
            },
            args.toArray());
    return new Poll(rows, dbNow[0]);
  }

  /** Why a run is claimed; each kind claims only a row in its own state. */
  enum Kind {
    /** Waiting, not paused, and due. */
    SCHEDULED,
    /** Not running and triggered over HTTP, paused or not. */
    TRIGGERED,
    /** Running with a heartbeat older than the timeout: its fire time and attempt are kept. */
    TAKEOVER,
    /** Not running: a run asked for through the job scheduler, whatever its schedule. */
    NOW
  }

  /**
   * Claims a task if it still carries the version seen and is still claimable as {@code kind}
   * (judged on the database's clock); its version advances to the run's fence.
   *
   * @param fireTime the run's fire time, for every kind but a takeover (which keeps it)
   * @return the fence, or empty if another instance claimed it first or it is no longer claimable
   */
  OptionalLong claim(
      TaskRow seen, Kind kind, String owner, long fireTime, long heartbeatTimeoutMs) {
    String started = "started_at = " + now + ", heartbeat = " + now + ", owner = ?";
    String identity = "name = ? AND version = ? AND ";
    // MySQL assigns left to right, each assignment seeing the ones before it: status goes last.
    return switch (kind) {
      case TAKEOVER ->
          dialect.advanceWhere(
              claims,
              "hr_task",
              "version",
              fenceAfter(),
              started + ", status = 'running'",
              identity + "status = 'running' AND heartbeat <= " + now + " - ?",
              owner,
              seen.name(),
              seen.version(),
              heartbeatTimeoutMs);
      case SCHEDULED ->
          dialect.advanceWhere(
              claims,
              "hr_task",
              "version",
              fenceAfter(),
              "manual = 0, fire_time = ?, triggered = 0, " + started + ", status = 'running'",
              identity + "status = 'waiting' AND paused = 0 AND next_time <= " + now,
              fireTime,
              owner,
              seen.name(),
              seen.version());
      case TRIGGERED, NOW ->
          dialect.advanceWhere(
              claims,
              "hr_task",
              "version",
              fenceAfter(),
              "manual = 1, fire_time = ?, triggered = 0, " + started + ", status = 'running'",
              identity
                  + "status <> 'running'"
                  + (kind == Kind.TRIGGERED ? " AND triggered = 1" : ""),
              fireTime,
              owner,
              seen.name(),
              seen.version());
    };
  }

  /**
   * Whether due tasks are claimed several to a statement ({@link #claimDue}), passing over rows
   * another instance holds locked; else each is claimed on its own ({@link #claim}).
   */
  boolean claimsInBatches() {
    return batches && dialect.supportsSkipLocked();
  }

  /**
   * Claims up to {@code limit} due tasks of the given jobs, earliest first, passing over rows
   * another transaction holds locked (another instance claiming them): one statement on PostgreSQL,
   * elsewhere one transaction of three (lock, update, read back), as MySQL's and MariaDB's {@code
   * UPDATE} returns no rows and takes no {@code LIMIT} in a subquery on its own table, and H2 takes
   * no {@code FOR UPDATE} in one. A task asked for over HTTP is left to {@link Kind#TRIGGERED}.
   * Each row is judged due again once locked, on the database's clock, so a row claimed or changed
   * since the poll is not taken; its version advances to its run's fence, its fire time is that of
   * its cycle ({@link TaskRow#dueFireTime}).
   *
   * @return the claimed rows as they now are: running, owned by {@code owner}, version the fence
   */
  List<TaskRow> claimDue(List<String> jobs, String owner, int limit) {
    String pick =
        "SELECT name FROM hr_task WHERE job IN ("
            + SqlDialect.placeholders(jobs.size())
            + ") AND "
            + due
            + " ORDER BY next_time LIMIT ? FOR UPDATE SKIP LOCKED";
    // MySQL assigns left to right, each assignment seeing the ones before it: status goes last.
    String claim =
        "UPDATE hr_task SET manual = 0, fire_time = CASE WHEN cycle_time > 0 THEN cycle_time ELSE"
            + " next_time END, started_at = "
            + now
            + ", heartbeat = "
            + now
            + ", owner = ?, version = "
            + fenceAfter()
            + ", status = 'running' WHERE "
            + due
            + " AND name";
    List<Object> pickArgs = new ArrayList<>(jobs);
    pickArgs.add(limit);
    if (dialect.supportsUpdateReturning()) {
      List<Object> args = new ArrayList<>();
      args.add(owner);
      args.addAll(pickArgs);
      // The locking subquery in an ARRAY, run once: as a plain IN, PostgreSQL may run it again
      // when it re-checks a row another claimer changed, and claim past the LIMIT.
      return claims.query(
          claim + " = ANY(ARRAY(" + pick + ")) RETURNING " + COLUMNS, TASK, args.toArray());
    }
    List<TaskRow> claimed =
        claimTx.execute(
            status -> {
              List<String> names = claims.queryForList(pick, String.class, pickArgs.toArray());
              if (names.isEmpty()) {
                return List.of();
              }
              List<Object> args = new ArrayList<>();
              args.add(owner);
              args.addAll(names);
              claims.update(
                  claim + " IN (" + SqlDialect.placeholders(names.size()) + ")", args.toArray());
              return claims.query(
                  "SELECT "
                      + COLUMNS
                      + " FROM hr_task WHERE owner = ? AND status = 'running' AND name IN ("
                      + SqlDialect.placeholders(names.size())
                      + ")",
                  TASK,
                  args.toArray());
            });
    return claimed == null ? List.of() : claimed;
  }

  /** Whether a task of the given jobs is due that {@link #claimDue} would take. */
  boolean anyDue(List<String> jobs) {
    return !jdbc.queryForList(
            "SELECT name FROM hr_task WHERE job IN ("
                + SqlDialect.placeholders(jobs.size())
                + ") AND "
                + due
                + " LIMIT 1",
            String.class,
            jobs.toArray())
        .isEmpty();
  }

  /**
   * The next fence: the version plus one, never below the database's clock in microseconds, as a
   * lease's fence is ({@link io.hotrank.lock.JdbcLeaseStore}), so that a job's tokens keep growing
   * when it moves between the lease and the task engine.
   */
  private String fenceAfter() {
    return "GREATEST(version + 1, " + now + " * 1000)";
  }

  /**
   * Moves a due task past fire times its misfire policy skips, if it is still as seen, and records
   * a history row saying so.
   *
   * @return false if another instance did it or claimed the task first
   */
  boolean skipMissed(TaskRow seen, long nextTime, long now, String instance, String why) {
    return Boolean.TRUE.equals(
        tx.execute(
            status -> {
              int moved =
                  jdbc.update(
                      "UPDATE hr_task SET next_time = ? WHERE name = ? AND version = ? AND status"
                          + " = 'waiting' AND next_time = ? AND cycle_time = 0",
                      nextTime,
                      seen.name(),
                      seen.version(),
                      seen.nextTime());
              if (moved == 1) {
                insertRun(
                    seen.name(),
                    seen.nextTime(),
                    now,
                    "skipped",
                    instance,
                    seen.version(),
                    seen.attempt(),
                    false,
                    why);
              }
              return moved == 1;
            }));
  }

  /**
   * Bounds each heartbeat statement (whole seconds, at least one), so that a renewal stuck on a
   * lock or a dead connection fails rather than outlives the heartbeat timeout.
   */
  void beatsTimeout(java.time.Duration timeout) {
    beats.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
  }

  /** Renews a run's heartbeat: false once the row no longer carries the run's fence. */
  boolean heartbeat(String task, long fence) {
    return beats.update(
            "UPDATE hr_task SET heartbeat = "
                + now
                + " WHERE name = ? AND version = ? AND status = 'running'",
            task,
            fence)
        == 1;
  }

  /**
   * Records a run's end and sets the task's next state, in one transaction, only if the row still
   * carries the run's fence: a run taken over can neither record its outcome nor move the task.
   *
   * @return false if the run had been taken over (or the task deleted): nothing was written
   */
  boolean complete(Completion done) {
    return dialect.supportsWritingCte()
        ? write(jdbc, done)
        : Boolean.TRUE.equals(tx.execute(status -> write(jdbc, done)));
  }

  /**
   * Records several runs' ends in one transaction, one commit for all, each as {@link #complete}
   * does it, in the order of the tasks' names (two writers lock rows in one order).
   *
   * @return for each completion, in the order given, whether it was written
   */
  boolean[] completeAll(List<Completion> completions) {
    Integer[] order = new Integer[completions.size()];
    java.util.Arrays.setAll(order, i -> i);
    java.util.Arrays.sort(
        order, java.util.Comparator.comparing((Integer i) -> completions.get(i).task()));
    boolean[] written = new boolean[completions.size()];
    // A second of statement time per 32 completions: a busy database does not fail a large group.
    grouped.setQueryTimeout(1 + completions.size() / 32); // the group writer is its only user
    claimTx.executeWithoutResult(
        status -> {
          if (dialect.supportsWritingCte()) {
            // One statement per completion, sent as one batch: one round trip for the group.
            List<Object[]> batch = new ArrayList<>();
            for (int i : order) {
              batch.add(completionArgs(completions.get(i)).toArray());
            }
            int[] counts = grouped.batchUpdate(completeInOne, batch);
            for (int k = 0; k < order.length; k++) {
              if (counts[k] < 0) {
                throw new IllegalStateException("The driver did not count a completion's rows");
              }
              written[order[k]] = counts[k] == 1;
            }
            return;
          }
          // One by one: MariaDB's driver sends a batch in its bulk protocol, which takes no
          // INSERT ... SELECT.
          for (int i : order) {
            written[i] = write(grouped, completions.get(i));
          }
        });
    return written;
  }

  /** A completion's statements, in the caller's transaction unless it is one statement. */
  private boolean write(JdbcTemplate jdbc, Completion done) {
    List<Object> args = completionArgs(done);
    if (dialect.supportsWritingCte()) {
      return jdbc.update(completeInOne, args.toArray()) == 1;
    }
    if (jdbc.update(completeTask, args.subList(0, COMPLETE_TASK_ARITY).toArray()) == 0) {
      return false;
    }
    List<Object> recordArgs = new ArrayList<>(args.subList(COMPLETE_TASK_ARITY, args.size()));
    recordArgs.add(done.task());
    jdbc.update(completeRun + "hr_task WHERE name = ?", recordArgs.toArray());
    return true;
  }

  /** The parameters of {@link #completeTask}, then those of {@link #completeRun}. */
  private static List<Object> completionArgs(Completion done) {
    return java.util.Arrays.asList(
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
        done.fence(),
        done.outcome(),
        done.owner(),
        done.fence(),
        done.runAttempt(),
        truncate(done.error()));
  }

  /** Records the run a takeover ended, as {@code abandoned}, with the owner and fence it had. */
  void recordAbandoned(TaskRow stale, String takenBy) {
    insertRun(
        stale.name(),
        stale.fireTime(),
        stale.startedAt(),
        "abandoned",
        stale.owner(),
        stale.version(),
        stale.attempt(),
        stale.manual(),
        "no heartbeat since "
            + java.time.Instant.ofEpochMilli(stale.heartbeat())
            + "; taken over"
            + " by "
            + takenBy);
  }

  private void insertRun(
      String task,
      long fireTime,
      long startedAt,
      String outcome,
      String owner,
      long fence,
      int attempt,
      boolean manual,
      String error) {
    jdbc.update(
        "INSERT INTO hr_task_run (task_name, fire_time, started_at, ended_at, outcome, owner,"
            + " fence, attempt, manual, error) VALUES (?, ?, ?, "
            + now
            + ", ?, ?, ?, ?, ?, ?)",
        task,
        fireTime,
        startedAt,
        outcome,
        owner,
        fence,
        attempt,
        manual ? 1 : 0,
        truncate(error));
  }

  /** Every task's consecutive failures, as the database has them. */
  Map<String, Integer> consecutiveFailures() {
    Map<String, Integer> failures = new HashMap<>();
    jdbc.query(
        "SELECT name, consecutive_failures FROM hr_task",
        row -> {
          failures.put(row.getString(1), row.getInt(2));
        });
    return failures;
  }

  /** A task's history, newest first. */
  List<TaskRun> runs(String task, int limit, int offset) {
    return jdbc.query(
        "SELECT "
            + RUN_COLUMNS
            + " FROM hr_task_run WHERE task_name = ? ORDER BY id DESC LIMIT ? OFFSET ?",
        RUN,
        task,
        limit,
        offset);
  }

  /**
   * Each task's latest history row: one index lookup per task ({@code (task_name, id)}), not a scan
   * of the history, which a task firing every second fills quickly.
   */
  Map<String, TaskRun> lastRuns() {
    Map<String, TaskRun> last = new HashMap<>();
    jdbc.query(
            "SELECT r.id, r.task_name, r.fire_time, r.started_at, r.ended_at, r.outcome, r.owner,"
                + " r.fence, r.attempt, r.manual, r.error FROM hr_task t JOIN hr_task_run r ON r.id"
                + " = (SELECT MAX(l.id) FROM hr_task_run l WHERE l.task_name = t.name)",
            RUN)
        .forEach(run -> last.put(run.task(), run));
    return last;
  }

  /** Deletes history rows that ended more than {@code retentionMs} ago. */
  int prune(long retentionMs) {
    return jdbc.update("DELETE FROM hr_task_run WHERE ended_at < " + now + " - ?", retentionMs);
  }

  private static @Nullable String truncate(@Nullable String error) {
    return error == null || error.length() <= ERROR_LENGTH
        ? error
        : error.substring(0, ERROR_LENGTH - 1) + "…";
  }

  private static @Nullable Long nullableLong(ResultSet row, String column) throws SQLException {
    long value = row.getLong(column);
    return row.wasNull() ? null : value;
  }

  private static Misfire misfire(String text) {
    Misfire misfire = Misfire.parse(text);
    return misfire == null ? Misfire.SKIP : misfire;
  }
}
