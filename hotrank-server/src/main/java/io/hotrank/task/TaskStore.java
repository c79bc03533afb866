package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code hr_task} and {@code hr_task_run}. Every comparison with the current time reads the
 * database's clock inside the statement ({@link SqlDialect#nowMillis()}), never an instance's. A
 * run is claimed by compare-and-set on the row's version, which becomes the run's fencing token;
 * its heartbeat and its completion are written only while the row still carries that version.
 * Thread-safe.
 */
final class TaskStore {

  /**
   * Rows seen by a poll, and the database's time when it read them ({@link Long#MIN_VALUE} when it
   * read none: an empty poll costs no second statement for the time).
   */
  record Poll(List<TaskRow> rows, long now) {}

  /** Runs newest first: by end, then by fence (a task's fences grow run by run). */
  private static final Comparator<TaskRun> NEWEST_FIRST =
      Comparator.comparingLong(TaskRun::endedAt).thenComparingLong(TaskRun::fence).reversed();

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

  private final SqlDialect dialect;
  private final TransactionTemplate tx;

  /** The statements that differ between engines: batch claims and completions. */
  private final TaskSql sql;

  private final String now;

  /** {@link #now}, read once per statement: a bound an index scan can use. */
  private final String nowOnce;

  /**
   * Whether due tasks may be claimed in batches where the engine can ({@link #claimsInBatches}).
   */
  private final boolean batches;

  TaskStore(
      JdbcTemplate jdbc,
      SqlDialect dialect,
      TransactionTemplate tx,
      TaskHistory history,
      int historyKeep) {
    this(jdbc, dialect, tx, history, historyKeep, true);
  }

  /** With {@code batches} false, every claim is one row's compare-and-set (tests of that path). */
  TaskStore(
      JdbcTemplate jdbc,
      SqlDialect dialect,
      TransactionTemplate tx,
      TaskHistory history,
      int historyKeep,
      boolean batches) {
    this.batches = batches;
    this.jdbc = jdbc;
    this.beats = new JdbcTemplate(java.util.Objects.requireNonNull(jdbc.getDataSource()));
    this.beats.setQueryTimeout(jdbc.getQueryTimeout());
    this.claims = new JdbcTemplate(jdbc.getDataSource());
    this.claims.setQueryTimeout(1);
    this.dialect = dialect;
    this.tx = tx;
    this.sql = TaskSql.of(dialect, jdbc, tx, history, historyKeep);
    this.now = sql.now;
    this.nowOnce = dialect.nowMillisOnce();
  }

  /** Which runs are kept. */
  TaskHistory history() {
    return sql.history;
  }

  /** With {@link TaskHistory#FAILURES}, how many successful runs of each task are kept. */
  int historyKeep() {
    return sql.keep;
  }

  long nowMillis() {
    return dialect.readNow(jdbc);
  }

  List<TaskRow> all() {
    return jdbc.query(
        "SELECT " + TaskColumns.TASK_COLUMNS + " FROM hr_task ORDER BY name", TaskColumns.TASK);
  }

  Optional<TaskRow> find(String name) {
    return jdbc
        .query(
            "SELECT " + TaskColumns.TASK_COLUMNS + " FROM hr_task WHERE name = ?",
            TaskColumns.TASK,
            name)
        .stream()
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
   *
   * <p>Three queries in one statement, each served by an index ({@code hr_task_triggered}, then
   * {@code hr_task_due} twice) and each limited on its own: as one {@code WHERE} of three {@code
   * OR}ed conditions, MariaDB read the whole table at every poll (20,000 rows, 43 ms of server
   * time, ten times a second per instance, in the task bench). The three are disjoint: a triggered
   * waiting task is only in the first.
   */
  Poll poll(List<String> jobs, long heartbeatTimeoutMs, long horizonMs, int limit, boolean due) {
    String ofJobs =
        " FROM hr_task WHERE job IN (" + SqlDialect.placeholders(jobs.size()) + ") AND ";
    String select = "(SELECT " + TaskColumns.TASK_COLUMNS + ", " + now + " AS db_now, ";
    String sql =
        select
            + "0 AS urgency"
            + ofJobs
            + "triggered = 1 AND status <> 'running' ORDER BY next_time LIMIT ?) UNION ALL "
            + select
            + "0"
            + ofJobs
            + "status = 'running' AND heartbeat <= "
            + nowOnce
            + " - ? ORDER BY next_time LIMIT ?) UNION ALL "
            + select
            + "1"
            + ofJobs
            + "status = 'waiting' AND paused = 0 AND triggered = 0 AND next_time <= "
            + nowOnce
            + " + ?"
            + (due ? "" : " AND next_time > " + nowOnce)
            + " ORDER BY next_time LIMIT ?) ORDER BY urgency, next_time LIMIT ?";
    List<Object> args = new ArrayList<>(jobs);
    args.add(limit);
    args.addAll(jobs);
    args.add(heartbeatTimeoutMs);
    args.add(limit);
    args.addAll(jobs);
    args.add(horizonMs);
    args.add(limit);
    args.add(limit);
    long[] dbNow = {Long.MIN_VALUE};
    List<TaskRow> rows =
        jdbc.query(
            sql,
            (row, i) -> {
              dbNow[0] = Math.max(dbNow[0], row.getLong("db_now"));
              return TaskColumns.TASK.mapRow(row, i);
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
              sql.fenceAfter(),
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
              sql.fenceAfter(),
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
              sql.fenceAfter(),
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
   * elsewhere one transaction of two (lock and read, then update), as MySQL's and MariaDB's {@code
   * UPDATE} returns no rows and takes no {@code LIMIT} in a subquery on its own table, and H2 takes
   * no {@code FOR UPDATE} in one. A task asked for over HTTP is left to {@link Kind#TRIGGERED}.
   * Each row is judged due again once locked, on the database's clock, so a row claimed or changed
   * since the poll is not taken; its version advances to its run's fence, its fire time is that of
   * its cycle ({@link TaskRow#dueFireTime}).
   *
   * @return the claimed rows as they now are: running, owned by {@code owner}, version the fence
   */
  List<TaskRow> claimDue(List<String> jobs, String owner, int limit) {
    return sql.claimDue(jobs, owner, limit);
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
              if (moved == 1 && sql.history.keepsFailures()) {
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
    return sql.complete(done);
  }

  /**
   * Records several runs' ends in one transaction, one commit for all, each as {@link #complete}
   * does it, in the order of the tasks' names (two writers lock rows in one order). Statements run
   * with a short timeout: a group that meets a row held locked fails fast, and each of its
   * completions is written alone ({@link Completions}).
   *
   * @return for each completion, in the order given, whether it was written
   */
  boolean[] completeAll(List<Completion> completions) {
    return sql.completeAll(completions);
  }

  /**
   * Marks the runs an owner's earlier, dead process left running as stale (heartbeat 0), so that
   * the next poll of any instance takes them over instead of waiting out the heartbeat timeout.
   * Called once at start by an instance whose id is exclusive, before it claims anything.
   *
   * @return how many runs were marked
   */
  int expireRunsOf(String owner) {
    return jdbc.update(
        "UPDATE hr_task SET heartbeat = 0 WHERE owner = ? AND status = 'running'", owner);
  }

  /**
   * Takes over a running task whose heartbeat is older than {@code heartbeatTimeoutMs} ({@link
   * Kind#TAKEOVER}) and, in the same transaction, records the run it ends as {@code abandoned},
   * with the owner and fence it had (unless no history is kept).
   *
   * @return the new fence, or empty if the run was renewed, ended or taken by another instance
   */
  OptionalLong takeOver(TaskRow stale, String owner, long heartbeatTimeoutMs) {
    OptionalLong fence =
        tx.execute(
            status -> {
              OptionalLong taken =
                  claim(stale, Kind.TAKEOVER, owner, stale.fireTime(), heartbeatTimeoutMs);
              if (taken.isPresent() && sql.history.keepsFailures()) {
                insertRun(
                    stale.name(),
                    stale.fireTime(),
                    stale.startedAt(),
                    "abandoned",
                    stale.owner(),
                    stale.version(),
                    stale.attempt(),
                    stale.manual(),
                    (stale.heartbeat() == 0
                            ? "its owner restarted"
                            : "no heartbeat since "
                                + java.time.Instant.ofEpochMilli(stale.heartbeat()))
                        + "; taken over by "
                        + owner);
              }
              return taken;
            });
    return fence == null ? OptionalLong.empty() : fence;
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
        TaskColumns.truncate(error));
  }

  /** The consecutive failures of every task that has failed in a row, as the database has them. */
  Map<String, Integer> consecutiveFailures() {
    Map<String, Integer> failures = new HashMap<>();
    jdbc.query(
        "SELECT name, consecutive_failures FROM hr_task WHERE consecutive_failures > 0",
        row -> {
          failures.put(row.getString(1), row.getInt(2));
        });
    return failures;
  }

  /**
   * A task's history, newest first (by end, then fence): its rows in {@code hr_task_run} and in its
   * ring of recent runs, each read in its own order (the run table by its {@code (task_name, id)}
   * index, never sorted whole) and merged here.
   */
  List<TaskRun> runs(String task, int limit, int offset) {
    long wanted = Math.min((long) limit + offset, Integer.MAX_VALUE);
    List<TaskRun> runs =
        new ArrayList<>(
            jdbc.query(
                "SELECT "
                    + TaskColumns.RUN_COLUMNS
                    + " FROM hr_task_run WHERE task_name = ? ORDER BY id DESC LIMIT ?",
                TaskColumns.RUN,
                task,
                wanted));
    runs.addAll(
        jdbc.query(
            "SELECT "
                + TaskColumns.RECENT_COLUMNS
                + " FROM hr_task_recent WHERE task_name = ? AND slot < ?",
            TaskColumns.RUN,
            task,
            sql.keep));
    runs.sort(NEWEST_FIRST);
    return runs.subList(Math.min(offset, runs.size()), (int) Math.min(wanted, runs.size()));
  }

  /**
   * Each task's latest run: one index lookup per task in the run table ({@code (task_name, id)}),
   * not a scan of the history, which a task firing every second fills quickly, and the ring's
   * newest slot ({@code run_count mod keep}); the later of the two.
   */
  Map<String, TaskRun> lastRuns() {
    Map<String, TaskRun> last = new HashMap<>();
    java.util.function.Consumer<TaskRun> later =
        run -> last.merge(run.task(), run, (a, b) -> NEWEST_FIRST.compare(a, b) <= 0 ? a : b);
    jdbc.query(
            "SELECT r.id, r.task_name, r.fire_time, r.started_at, r.ended_at, r.outcome, r.owner,"
                + " r.fence, r.attempt, r.manual, r.error FROM hr_task t JOIN hr_task_run r ON r.id"
                + " = (SELECT MAX(l.id) FROM hr_task_run l WHERE l.task_name = t.name)",
            TaskColumns.RUN)
        .forEach(later);
    jdbc.query(
            "SELECT NULL AS id, r.task_name, r.fire_time, r.started_at, r.ended_at, r.outcome,"
                + " r.owner, r.fence, r.attempt, r.manual, r.error FROM hr_task t JOIN"
                + " hr_task_recent r ON r.task_name = t.name AND r.slot = MOD(t.run_count, ?)",
            TaskColumns.RUN,
            sql.keep)
        .forEach(later);
    return last;
  }

  /**
   * Deletes run rows that ended more than {@code retentionMs} ago, ring slots past the ring's size
   * (left by a smaller {@code history-keep}), and the rings of tasks deleted that long ago.
   */
  int prune(long retentionMs) {
    return jdbc.update("DELETE FROM hr_task_run WHERE ended_at < " + nowOnce + " - ?", retentionMs)
        + jdbc.update(
            "DELETE FROM hr_task_recent WHERE slot >= ? OR (ended_at < "
                + nowOnce
                + " - ? AND NOT EXISTS (SELECT 1 FROM hr_task t WHERE t.name ="
                + " hr_task_recent.task_name))",
            sql.keep,
            retentionMs);
  }
}
