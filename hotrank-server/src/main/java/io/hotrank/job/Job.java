package io.hotrank.job;

/**
 * Work run by the {@link JobScheduler}. An implementation does its work and returns, or throws; it
 * checks {@link JobContext#cancelled()} at points where stopping is safe, and passes {@link
 * JobContext#fence()} to every write that another instance's newer run must be able to refuse.
 */
public interface Job {

  /** The job's name: its lease's name and its key under {@code hotrank.jobs.*}. */
  String name();

  /**
   * Does one run.
   *
   * @throws Exception on failure; the run's outcome is then {@code failed}
   */
  void run(JobContext context) throws Exception;

  /**
   * Whether the job fires so often (every second or so) that a line per successful scheduled run
   * would drown the log: such runs are logged at DEBUG; failures and runs on request still at INFO.
   */
  default boolean frequent() {
    return false;
  }

  /**
   * Whether a run stays busy for most of the time until the next one (a job that loops within its
   * slot, such as the event folder): the scheduler gives each such job a thread of its own, so that
   * it never holds up the others' runs.
   */
  default boolean lingers() {
    return false;
  }
}
