package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * MySQL and MariaDB: a group of completions is one {@code UPDATE} of all its tasks, then one {@code
 * INSERT ... SELECT} per history table it writes to, in one transaction.
 *
 * <p>Why one statement and not a JDBC batch of one per completion: MariaDB spent about 100 µs of
 * its CPU on each single-row completion (parsing a long statement, opening the table, locking,
 * undo), against about 30 µs per row as one statement for a group of eleven (measured by replaying
 * the task bench's statements). What differs from row to row (the next fire time, the fence) is a
 * {@code CASE name WHEN ...}; what the group shares is written once. The fence of every row is
 * still checked: the statement matches a row only while it carries its run's fence, and a group
 * whose rows did not all match is rolled back and written again a completion at a time, which tells
 * which run lost its row. A run taken over is rare; that is the only time this costs more.
 */
final class MySqlTaskSql extends TaskSql {

  MySqlTaskSql(
      SqlDialect dialect,
      JdbcTemplate jdbc,
      TransactionTemplate tx,
      TaskHistory history,
      int keep,
      boolean readCommittedClaims) {
    super(dialect, jdbc, tx, history, keep, readCommittedClaims);
  }

  /** A value per completion, in SQL with its parameters, or the same for the whole group. */
  private record Value(String sql, List<Object> args) {

    static Value of(String sql, Object... args) {
      return new Value(sql, List.of(args));
    }

    /** Whether two values are alike, typed parameters compared by their values. */
    boolean same(Value other) {
      if (!sql.equals(other.sql) || args.size() != other.args.size()) {
        return false;
      }
      for (int i = 0; i < args.size(); i++) {
        if (!Objects.equals(plain(args.get(i)), plain(other.args.get(i)))) {
          return false;
        }
      }
      return true;
    }

    private static Object plain(Object arg) {
      return arg instanceof SqlParameterValue typed ? typed.getValue() : arg;
    }
  }

  /**
   * The completions' values of one column, in SQL: the value once when all are alike, else a {@code
   * CASE} on the task's name; its parameters are added to {@code args}.
   */
  private static String perTask(
      List<Completion> group, Function<Completion, Value> value, List<Object> args) {
    Value first = value.apply(group.getFirst());
    if (group.stream().allMatch(done -> value.apply(done).same(first))) {
      args.addAll(first.args());
      return first.sql();
    }
    StringBuilder sql = new StringBuilder("CASE name");
    for (Completion done : group) {
      Value each = value.apply(done);
      sql.append(" WHEN ? THEN ").append(each.sql());
      args.add(done.task());
      args.addAll(each.args());
    }
    return sql.append(" END").toString();
  }

  /** {@code name IN (...)} for the group's tasks. */
  private static String named(List<Completion> group, List<Object> args) {
    group.forEach(done -> args.add(done.task()));
    return "name IN (" + SqlDialect.placeholders(group.size()) + ")";
  }

  /**
   * Records several runs' ends in one transaction (see {@link TaskStore#completeAll}): one update
   * of the tasks, then at most one insert per history table. Completions of the same task (a stale
   * run and a new one) cannot share a {@code CASE}: such a group is written a completion at a time.
   */
  @Override
  boolean[] completeAll(List<Completion> completions) {
    if (completions.stream().map(Completion::task).distinct().count() < completions.size()) {
      return super.completeAll(completions);
    }
    try {
      writeGroup(completions);
    } catch (FenceLost e) {
      return super.completeAll(completions); // the group's transaction was rolled back
    }
    boolean[] written = new boolean[completions.size()];
    Arrays.fill(written, true);
    return written;
  }

  /** Some of a group's tasks no longer carried their run's fence: nothing of it was written. */
  private static final class FenceLost extends RuntimeException {
    FenceLost(int matched, int group) {
      super(
          matched + " of " + group + " completions still held their task's fence",
          null,
          false,
          false);
    }
  }

  /**
   * The group's statements, in one transaction; throws {@link FenceLost} if a row did not match.
   */
  private void writeGroup(List<Completion> completions) {
    inOneGroup(
        completions,
        order -> {
          List<Completion> group = new ArrayList<>();
          for (int i : order) {
            group.add(completions.get(i));
          }
          List<Object> args = new ArrayList<>();
          String update = completeTasks(group, args);
          int matched = grouped.update(update, args.toArray());
          if (matched != group.size()) {
            throw new FenceLost(matched, group.size()); // rolls the transaction back
          }
          List<Completion> runs = new ArrayList<>();
          List<Completion> recent = new ArrayList<>();
          for (Completion done : group) {
            switch (history.destination(done.outcome())) {
              case RUNS -> runs.add(done);
              case RECENT -> recent.add(done);
              case NOWHERE -> {}
            }
          }
          if (!runs.isEmpty()) {
            List<Object> runArgs = new ArrayList<>();
            String select = selectHistory("", runs, runArgs);
            grouped.update(
                "INSERT INTO hr_task_run (" + HISTORY_COLUMNS + ") " + select, runArgs.toArray());
          }
          if (!recent.isEmpty()) {
            List<Object> recentArgs = new ArrayList<>(List.of(keep));
            String select = selectHistory(" MOD(run_count, ?),", recent, recentArgs);
            grouped.update(upsertRecent(select), recentArgs.toArray());
          }
        });
  }

  /** The group's fenced update of its tasks ({@link #completeTask}, a row per completion). */
  private String completeTasks(List<Completion> group, List<Object> args) {
    String changed = "rescheduled_at > started_at";
    // MySQL assigns left to right, each assignment seeing the ones before it: as in completeTask,
    // no assignment reads a column assigned before it.
    String runCount =
        perTask(
            group,
            done ->
                Value.of(
                    "?",
                    history.destination(done.outcome()) == TaskHistory.Destination.RECENT ? 1 : 0),
            args);
    String nextTime =
        perTask(
            group,
            done -> {
              if (done.retryDelayMs() != null) {
                return Value.of(now + " + ?", done.retryDelayMs());
              }
              return done.nextTime() == null
                  ? Value.of("next_time")
                  : Value.of("?", done.nextTime());
            },
            args);
    String attempt = perTask(group, done -> Value.of("?", done.attempt()), args);
    String cycleTime =
        perTask(
            group,
            done ->
                done.cycleTime() == null ? Value.of("cycle_time") : Value.of("?", done.cycleTime()),
            args);
    String triggered = perTask(group, done -> Value.of(done.retrigger() ? "1" : "triggered"), args);
    String failures =
        perTask(
            group,
            done -> {
              if (done.succeeded()) {
                return Value.of("0");
              }
              return Value.of(done.failed() ? "consecutive_failures + 1" : "consecutive_failures");
            },
            args);
    String named = named(group, args);
    String fenced = perTask(group, done -> Value.of("?", done.fence()), args);
    return "UPDATE hr_task SET run_count = run_count + "
        + runCount
        + ", status = CASE WHEN paused = 1 THEN 'paused' ELSE 'waiting' END, next_time = CASE WHEN "
        + changed
        + " THEN next_time ELSE "
        + nextTime
        + " END, attempt = CASE WHEN "
        + changed
        + " THEN 0 ELSE "
        + attempt
        + " END, cycle_time = CASE WHEN "
        + changed
        + " THEN 0 ELSE "
        + cycleTime
        + " END, triggered = "
        + triggered
        + ", consecutive_failures = "
        + failures
        + " WHERE "
        + named
        + " AND status = 'running' AND version = "
        + fenced;
  }

  /**
   * The history rows of {@code group}, read from their tasks just updated; {@code slot} is the
   * ring's slot expression and its comma, or nothing.
   */
  private String selectHistory(String slot, List<Completion> group, List<Object> args) {
    StringBuilder sql = new StringBuilder("SELECT name,").append(slot);
    sql.append(" fire_time, started_at, ").append(now);
    List<Function<Completion, Value>> given =
        List.of(
            done -> Value.of("?", done.outcome()),
            done -> Value.of("?", done.owner()),
            done -> Value.of("?", done.fence()),
            done -> Value.of("?", done.runAttempt()));
    for (Function<Completion, Value> value : given) {
      sql.append(", ").append(perTask(group, value, args));
    }
    sql.append(", manual, ")
        .append(perTask(group, done -> Value.of("?", historyArgs(done).getLast()), args));
    return sql.append(" FROM hr_task WHERE ").append(named(group, args)).toString();
  }
}
