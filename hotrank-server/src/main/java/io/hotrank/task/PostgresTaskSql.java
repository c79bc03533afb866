package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * PostgreSQL: a batch claim is one statement, {@code UPDATE ... RETURNING}, and a completion is
 * one, a writing {@code WITH}: one round trip and one commit each. Its default isolation, {@code
 * READ COMMITTED}, is already the one a batch claim needs.
 */
final class PostgresTaskSql extends TaskSql {

  /**
   * A completion's two writes in one statement: the insert sees only the row the update matched.
   */
  private final String completeInOne;

  PostgresTaskSql(SqlDialect dialect, JdbcTemplate jdbc, TransactionTemplate tx) {
    super(dialect, jdbc, tx, false, false);
    this.completeInOne =
        "WITH done AS ("
            + completeTask
            + " RETURNING name, fire_time, started_at, manual) "
            + completeRun
            + "done";
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
            + pickDue(jobs.size())
            + ")) RETURNING "
            + TaskColumns.TASK_COLUMNS,
        TaskColumns.TASK,
        args.toArray());
  }

  @Override
  boolean complete(Completion done) {
    return jdbc.update(completeInOne, completionArgs(done).toArray()) == 1;
  }

  /** One statement per completion, sent as one JDBC batch: one round trip for the group. */
  @Override
  boolean[] completeAll(List<Completion> completions) {
    boolean[] written = new boolean[completions.size()];
    inOneGroup(
        completions,
        order -> {
          List<Object[]> batch = new ArrayList<>();
          for (int i : order) {
            batch.add(completionArgs(completions.get(i)).toArray());
          }
          int[] counts = grouped.batchUpdate(completeInOne, batch);
          for (int k = 0; k < order.length; k++) {
            written[order[k]] = matched(counts[k]);
          }
        });
    return written;
  }
}
