package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * PostgreSQL: a batch claim is one statement, {@code UPDATE ... RETURNING}, and a completion is
 * one, a writing {@code WITH}: one round trip and one commit each. A group of completions is one
 * writing {@code WITH} too, of one text whatever the group's size ({@link #completeAll}): its
 * values as arrays, joined to their tasks by name and fence. Its default isolation, {@code READ
 * COMMITTED}, is already the one a batch claim needs.
 */
final class PostgresTaskSql extends TaskSql {

  /**
   * A completion's writes in one statement, by where its history goes: the insert sees only the row
   * the update matched.
   */
  private final Map<TaskHistory.Destination, String> completeInOne =
      new EnumMap<>(TaskHistory.Destination.class);

  /**
   * The columns of a group's arrays, each with its type: first those of {@link #taskArgs}, in its
   * order, then those of {@link #historyArgs}, then where the run's history goes.
   */
  private static final List<Column> GROUP_COLUMNS =
      List.of(
          new Column("ring", "int"),
          new Column("retry", "int"),
          new Column("retry_ms", "bigint"),
          new Column("keep_next", "int"),
          new Column("next_time", "bigint"),
          new Column("attempt", "int"),
          new Column("keep_cycle", "int"),
          new Column("cycle_time", "bigint"),
          new Column("retrigger", "int"),
          new Column("succeeded", "int"),
          new Column("failed", "int"),
          new Column("name", "text"),
          new Column("fence", "bigint"),
          new Column("outcome", "text"),
          new Column("owner", "text"),
          new Column("run_fence", "bigint"),
          new Column("run_attempt", "int"),
          new Column("error", "text"),
          new Column("destination", "int"));

  /** A column of a group's arrays and its SQL type. */
  private record Column(String name, String type) {}

  /** A group's statement ({@link #completeAll}), the same text whatever the group's size. */
  private final String completeGroup;

  PostgresTaskSql(
      SqlDialect dialect,
      JdbcTemplate jdbc,
      TransactionTemplate tx,
      TaskHistory history,
      int keep) {
    super(dialect, jdbc, tx, history, keep, false);
    String done =
        "WITH done AS ("
            + completeTask
            + " RETURNING name, fire_time, started_at, manual,"
            + " run_count) ";
    completeInOne.put(TaskHistory.Destination.RUNS, done + completeRun + "done");
    completeInOne.put(TaskHistory.Destination.RECENT, done + completeRecent("done"));
    completeInOne.put(TaskHistory.Destination.NOWHERE, completeTask);
    this.completeGroup = completeGroup();
  }

  /**
   * The group's statement: its values as rows ({@code c}), the fenced update of their tasks as
   * {@link #completeTask} makes it of one, and the history rows of those it matched.
   */
  private String completeGroup() {
    StringBuilder sql = new StringBuilder("WITH c AS (SELECT * FROM unnest(");
    sql.append(
        String.join(", ", GROUP_COLUMNS.stream().map(c -> "?::" + c.type() + "[]").toList()));
    sql.append(") WITH ORDINALITY AS c(")
        .append(String.join(", ", GROUP_COLUMNS.stream().map(Column::name).toList()))
        .append(", i)), done AS (UPDATE hr_task t SET ")
        .append(moveTask("t.", value -> "c." + value))
        // "IS TRUE" keeps the status index out of the plan: the server's statistics count few
        // running tasks, and it would read them all, for every group, rather than look up each
        // task of the group by its name.
        .append(" FROM c WHERE t.name = c.name AND t.version = c.fence")
        .append(" AND (t.status = 'running') IS TRUE")
        .append(" RETURNING c.i, t.name, t.fire_time, t.started_at, t.manual, t.run_count,")
        .append(" c.destination, c.outcome, c.owner, c.run_fence, c.run_attempt, c.error)");
    String rows =
        " fire_time, started_at, "
            + now
            + ", outcome, owner, run_fence, run_attempt, manual, error FROM done WHERE destination"
            + " = ";
    if (history.writesTo(TaskHistory.Destination.RUNS)) {
      sql.append(", runs AS (INSERT INTO hr_task_run (")
          .append(HISTORY_COLUMNS)
          .append(") SELECT name,")
          .append(rows)
          .append(TaskHistory.Destination.RUNS.ordinal())
          .append(")");
    }
    if (history.writesTo(TaskHistory.Destination.RECENT)) {
      sql.append(", recent AS (")
          .append(
              upsertRecent(
                  "SELECT name, MOD(run_count, ?),"
                      + rows
                      + TaskHistory.Destination.RECENT.ordinal()))
          .append(")");
    }
    return sql.append(" SELECT i FROM done").toString();
  }

  /** A completion's statement and its parameters. */
  private Map.Entry<String, Object[]> statement(Completion done) {
    TaskHistory.Destination to = history.destination(done.outcome());
    List<Object> args = new ArrayList<>(taskArgs(done));
    if (to == TaskHistory.Destination.RECENT) {
      args.add(keep);
    }
    if (to != TaskHistory.Destination.NOWHERE) {
      args.addAll(historyArgs(done));
    }
    return Map.entry(completeInOne.get(to), args.toArray());
  }

  /**
   * The group's parameters: for each of {@link #GROUP_COLUMNS} an array of the completions' values,
   * then the ring's size if the statement writes the ring.
   */
  private Object[] groupArgs(List<Completion> group) {
    List<List<Object>> rows = new ArrayList<>();
    for (Completion done : group) {
      List<Object> row = new ArrayList<>(taskArgs(done));
      row.addAll(historyArgs(done));
      row.add(history.destination(done.outcome()).ordinal());
      if (row.size() != GROUP_COLUMNS.size()) {
        throw new IllegalStateException(
            "A completion has " + row.size() + " values for " + GROUP_COLUMNS.size() + " columns");
      }
      rows.add(row);
    }
    List<Object> args = new ArrayList<>();
    for (int column = 0; column < GROUP_COLUMNS.size(); column++) {
      args.add(array(GROUP_COLUMNS.get(column).type(), rows, column));
    }
    if (history.writesTo(TaskHistory.Destination.RECENT)) {
      args.add(keep);
    }
    return args.toArray();
  }

  /** The values of one column, as the array the driver binds for its SQL type. */
  private static Object array(String type, List<List<Object>> rows, int column) {
    return switch (type) {
      case "int" -> rows.stream().mapToInt(row -> ((Number) row.get(column)).intValue()).toArray();
      case "bigint" ->
          rows.stream().mapToLong(row -> ((Number) row.get(column)).longValue()).toArray();
      case "text" ->
          rows.stream()
              .map(row -> row.get(column))
              .map(value -> value instanceof SqlParameterValue typed ? typed.getValue() : value)
              .map(value -> (String) value)
              .toArray(String[]::new);
      default -> throw new IllegalArgumentException("No array of " + type);
    };
  }

  /**
   * Claims due tasks whose names the statement appends ({@code ... AND name}), for one owner (the
   * update of the batch claim, {@link #claimDue}).
   */
  private String claimDueNamed() {
    return "UPDATE hr_task SET manual = 0, fire_time = CASE WHEN cycle_time > 0 THEN cycle_time ELSE"
        + " next_time END, started_at = "
        + now
        + ", heartbeat = "
        + now
        + ", owner = ?, version = "
        + fenceAfter()
        + ", status = 'running' WHERE "
        + due
        + " AND name";
  }

  @Override
  List<TaskRow> claimDue(List<String> jobs, String owner, int limit) {
    List<Object> args = new ArrayList<>();
    args.add(owner);
    args.addAll(jobs);
    // The locking subquery in an ARRAY, run once: as a plain IN, PostgreSQL may run it again
    // when it re-checks a row another claimer changed, and claim past the LIMIT. The LIMIT is
    // written, not bound: under a bound one the server's generic plan looked costlier than a plan
    // for the value at hand, so it planned every claim anew (a quarter of a millisecond each, in
    // the task bench). Written, each number is a statement of its own (at most twice
    // max-concurrent per connection), which the server plans for good after its first uses.
    return claims.query(
        claimDueNamed()
            + " = ANY(ARRAY("
            + pickDue("name", jobs.size(), Integer.toString(limit))
            + ")) RETURNING "
            + TaskColumns.TASK_COLUMNS,
        TaskColumns.TASK,
        args.toArray());
  }

  @Override
  boolean complete(Completion done) {
    Map.Entry<String, Object[]> statement = statement(done);
    return jdbc.update(statement.getKey(), statement.getValue()) == 1;
  }

  /**
   * One statement for the group, whatever its size: the completions' values come as one array per
   * column ({@link #groupArgs}), unnested into rows numbered from one and joined to their tasks by
   * name and fence. The update returns the rows that still carried their run's fence, from which
   * the history rows are read; the statement answers their numbers. A stale run and a new one of
   * the same task each match only under their own fence. One statement, atomic on its own: no
   * transaction around it, so no commit to send apart.
   *
   * <p>The arrays come in the tasks' name order, and the plan looks each task up by its name in
   * that order, so two groups lock their rows in one order. A plan that joined otherwise (a table
   * of a few rows, say) could lock in another order; a deadlock then fails one group after the
   * server's deadlock timeout, and its completions are written alone ({@link Completions}).
   */
  @Override
  boolean[] completeAll(List<Completion> completions) {
    int[] order = lockOrder(completions);
    List<Completion> group = inOrder(completions, order);
    List<Integer> written = grouped.queryForList(completeGroup, Integer.class, groupArgs(group));
    boolean[] answers = new boolean[completions.size()];
    for (int number : written) {
      answers[order[number - 1]] = true;
    }
    return answers;
  }
}
