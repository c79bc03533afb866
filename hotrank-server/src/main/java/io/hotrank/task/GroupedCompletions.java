package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.springframework.jdbc.core.SqlParameterValue;

/**
 * The statements that write a group of completions at once on MySQL/MariaDB ({@link MySqlTaskSql}),
 * one per table, where it would otherwise take one per completion (PostgreSQL binds a group as
 * arrays instead, {@link PostgresTaskSql}). What differs from task to task (the next fire time, the
 * fence) is a {@code CASE name WHEN ...}; what the group shares is written once. Each statement's
 * parameters are added, in order, to the list it is given.
 *
 * <p>Why: a single-row completion cost MariaDB about 100 µs of CPU (parsing a long statement,
 * opening the table, locking, undo), against about 30 µs per row as one statement for a group of
 * eleven (measured by replaying the task bench's statements).
 */
final class GroupedCompletions {

  private final String now;
  private final TaskHistory history;

  /**
   * @param now the database's time in epoch milliseconds, as SQL
   */
  GroupedCompletions(String now, TaskHistory history) {
    this.now = now;
    this.history = history;
  }

  /** Whether the completions are of different tasks, as a {@code CASE} on the name needs. */
  static boolean distinctTasks(List<Completion> completions) {
    return completions.stream().map(Completion::task).distinct().count() == completions.size();
  }

  /** The completions by where their history rows go, in the order given. */
  Map<TaskHistory.Destination, List<Completion>> byDestination(List<Completion> group) {
    Map<TaskHistory.Destination, List<Completion>> by =
        new EnumMap<>(TaskHistory.Destination.class);
    for (Completion done : group) {
      by.computeIfAbsent(history.destination(done.outcome()), d -> new ArrayList<>()).add(done);
    }
    return by;
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
  static String perTask(
      List<Completion> group, Function<Completion, Value> value, List<Object> args) {
    List<Value> values = group.stream().map(value).toList();
    Value first = values.getFirst();
    if (values.stream().allMatch(first::same)) {
      args.addAll(first.args());
      return first.sql();
    }
    StringBuilder sql = new StringBuilder("CASE name");
    for (int i = 0; i < group.size(); i++) {
      sql.append(" WHEN ? THEN ").append(values.get(i).sql());
      args.add(group.get(i).task());
      args.addAll(values.get(i).args());
    }
    return sql.append(" END").toString();
  }

  /** {@code name IN (...)} for the group's tasks. */
  static String named(List<Completion> group, List<Object> args) {
    group.forEach(done -> args.add(done.task()));
    return "name IN (" + SqlDialect.placeholders(group.size()) + ")";
  }

  /**
   * The group's fenced update of its tasks ({@link TaskSql#completeTask}, a row per completion).
   */
  String updateTasks(List<Completion> group, List<Object> args) {
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
  String selectHistory(String slot, List<Completion> group, List<Object> args) {
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
        .append(perTask(group, done -> Value.of("?", TaskSql.historyArgs(done).getLast()), args));
    return sql.append(" FROM hr_task WHERE ").append(named(group, args)).toString();
  }
}
