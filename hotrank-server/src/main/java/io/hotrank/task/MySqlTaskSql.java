package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * MySQL and MariaDB: a group of completions is one {@code UPDATE} of all its tasks, then one {@code
 * INSERT ... SELECT} per history table it writes to, in one transaction ({@link
 * GroupedCompletions}). The fence of every row is still checked: the statement matches a row only
 * while it carries its run's fence, and a group whose rows did not all match is rolled back and
 * written again a completion at a time, which tells which run lost its row. A run taken over is
 * rare; that is the only time this costs more.
 */
final class MySqlTaskSql extends TaskSql {

  private final GroupedCompletions statements;

  MySqlTaskSql(
      SqlDialect dialect,
      JdbcTemplate jdbc,
      TransactionTemplate tx,
      TaskHistory history,
      int keep,
      boolean readCommittedClaims) {
    super(dialect, jdbc, tx, history, keep, readCommittedClaims);
    this.statements = new GroupedCompletions(now, history);
  }

  /**
   * Records several runs' ends in one transaction (see {@link TaskStore#completeAll}): one update
   * of the tasks, then at most one insert per history table. Completions of the same task (a stale
   * run and a new one) cannot share a {@code CASE}: such a group is written a completion at a time.
   */
  @Override
  boolean[] completeAll(List<Completion> completions) {
    if (!GroupedCompletions.distinctTasks(completions)) {
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
          List<Completion> group = inOrder(completions, order);
          List<Object> args = new ArrayList<>();
          int matched = grouped.update(statements.updateTasks(group, args), args.toArray());
          if (matched != group.size()) {
            throw new FenceLost(matched, group.size()); // rolls the transaction back
          }
          Map<TaskHistory.Destination, List<Completion>> by = statements.byDestination(group);
          List<Completion> runs = by.get(TaskHistory.Destination.RUNS);
          if (runs != null) {
            List<Object> runArgs = new ArrayList<>();
            String select = statements.selectHistory("", runs, runArgs);
            grouped.update(
                "INSERT INTO hr_task_run (" + HISTORY_COLUMNS + ") " + select, runArgs.toArray());
          }
          List<Completion> recent = by.get(TaskHistory.Destination.RECENT);
          if (recent != null) {
            List<Object> recentArgs = new ArrayList<>(List.of(keep));
            String select = statements.selectHistory(" MOD(run_count, ?),", recent, recentArgs);
            grouped.update(upsertRecent(select), recentArgs.toArray());
          }
        });
  }
}
