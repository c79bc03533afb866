package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * PostgreSQL: a batch claim is one statement, {@code UPDATE ... RETURNING}, and a completion is
 * one, a writing {@code WITH}: one round trip and one commit each. A group of completions is one
 * writing {@code WITH} too, its update of all the group's tasks ({@link GroupedCompletions})
 * returning those that still carried their run's fence, from which its history rows are read. Its
 * default isolation, {@code READ COMMITTED}, is already the one a batch claim needs.
 */
final class PostgresTaskSql extends TaskSql {

  /**
   * A completion's writes in one statement, by where its history goes: the insert sees only the row
   * the update matched.
   */
  private final Map<TaskHistory.Destination, String> completeInOne =
      new EnumMap<>(TaskHistory.Destination.class);

  private final GroupedCompletions statements;

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
    this.statements = new GroupedCompletions(now, history);
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
    args.add(limit);
    // The locking subquery in an ARRAY, run once: as a plain IN, PostgreSQL may run it again
    // when it re-checks a row another claimer changed, and claim past the LIMIT.
    return claims.query(
        claimDueNamed()
            + " = ANY(ARRAY("
            + pickDue("name", jobs.size())
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
   * One statement for the group: its tasks' update, then an insert per history table reading the
   * rows the update returned; the statement answers the names written. Completions of the same task
   * (a stale run and a new one) cannot share a {@code CASE}: such a group is written as a batch of
   * one statement per completion ({@link #completeEach}).
   */
  @Override
  boolean[] completeAll(List<Completion> completions) {
    if (!GroupedCompletions.distinctTasks(completions)) {
      return completeEach(completions);
    }
    boolean[] written = new boolean[completions.size()];
    // One statement, atomic on its own: no transaction around it, so no commit to send apart.
    int[] order = lockOrder(completions);
    List<Completion> group = GroupedCompletions.inOrder(completions, order);
    List<Object> args = new ArrayList<>();
    StringBuilder sql =
        new StringBuilder("WITH done AS (")
            .append(statements.updateTasks(group, args))
            .append(" RETURNING name, fire_time, started_at, manual, run_count)");
    Map<TaskHistory.Destination, List<Completion>> by = statements.byDestination(group);
    List<Completion> runs = by.get(TaskHistory.Destination.RUNS);
    if (runs != null) {
      sql.append(", runs AS (INSERT INTO hr_task_run (")
          .append(HISTORY_COLUMNS)
          .append(") ")
          .append(statements.selectHistory("", runs, args, "done"))
          .append(")");
    }
    List<Completion> recent = by.get(TaskHistory.Destination.RECENT);
    if (recent != null) {
      args.add(keep);
      sql.append(", recent AS (")
          .append(
              upsertRecent(statements.selectHistory(" MOD(run_count, ?),", recent, args, "done")))
          .append(")");
    }
    sql.append(" SELECT name FROM done");
    Set<String> names =
        new HashSet<>(grouped.queryForList(sql.toString(), String.class, args.toArray()));
    for (int i : order) {
      written[i] = names.contains(completions.get(i).task());
    }
    return written;
  }

  /**
   * One statement per completion, sent as one JDBC batch per form of statement (one for a group
   * whose runs all end alike): one round trip for the group, at most three.
   */
  private boolean[] completeEach(List<Completion> completions) {
    boolean[] written = new boolean[completions.size()];
    inOneGroup(
        completions,
        order -> {
          Map<String, List<Integer>> indexes = new LinkedHashMap<>();
          Map<String, List<Object[]>> batches = new LinkedHashMap<>();
          for (int i : order) {
            Map.Entry<String, Object[]> statement = statement(completions.get(i));
            indexes.computeIfAbsent(statement.getKey(), k -> new ArrayList<>()).add(i);
            batches
                .computeIfAbsent(statement.getKey(), k -> new ArrayList<>())
                .add(statement.getValue());
          }
          batches.forEach(
              (sql, batch) -> {
                int[] counts = grouped.batchUpdate(sql, batch);
                List<Integer> of = indexes.get(sql);
                for (int k = 0; k < counts.length; k++) {
                  written[of.get(k)] = matched(counts[k]);
                }
              });
        });
    return written;
  }

  /**
   * Whether a completion's fenced update, one of a JDBC batch, matched its row; a driver that did
   * not count the rows (its bulk protocol) fails the group, whose completions are then written
   * alone.
   */
  private static boolean matched(int count) {
    if (count < 0) {
      throw new IllegalStateException("The driver did not count a completion's rows");
    }
    return count == 1;
  }
}
