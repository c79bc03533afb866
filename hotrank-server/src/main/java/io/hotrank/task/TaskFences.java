package io.hotrank.task;

import io.hotrank.job.StaleFenceException;
import io.hotrank.problem.ProblemType;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Fenced writes for jobs that run as tasks and write to the same database: the write runs in a
 * transaction that first locks the task's row and checks that it still carries the run's fence
 * ({@link io.hotrank.job.JobContext#fence()}). A takeover must update that row, so it waits for the
 * write to commit, or the write sees the takeover and is refused: a run that was stalled past its
 * heartbeat timeout can never write after its successor started. What PowerJob's users ask of its
 * "tracker version check".
 */
@Component
public class TaskFences {

  private final JdbcTemplate jdbc;
  private final TransactionTemplate tx;

  public TaskFences(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
    this.jdbc = jdbc;
    this.tx = new TransactionTemplate(transactions);
  }

  /**
   * Runs {@code write} (statements on this service's {@code JdbcTemplate}) in one transaction with
   * the task's row locked, if the task still carries {@code fence}.
   *
   * @throws Stale if the task was taken over (or deleted): nothing was written; the run's outcome
   *     becomes {@code rejected}
   */
  public <T> T write(String task, long fence, Supplier<T> write) {
    return tx.execute(
        status -> {
          List<Long> version =
              jdbc.queryForList(
                  "SELECT version FROM hr_task WHERE name = ? FOR UPDATE", Long.class, task);
          if (version.isEmpty() || version.getFirst() != fence) {
            throw new Stale(task, fence);
          }
          return write.get();
        });
  }

  /** A write refused because the task no longer carries the run's fence. */
  public static final class Stale extends StaleFenceException {

    static final ProblemType TYPE = new ProblemType(409, "stale-task-fence", "Stale task fence");

    Stale(String task, long fence) {
      super(
          TYPE,
          "Task '" + task + "': write under fence " + fence + " refused; the run was taken over");
    }
  }
}
