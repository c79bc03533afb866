package io.hotrank.job;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Another way to run jobs than the {@link JobScheduler}'s cron and leases, chosen per job with
 * {@code hotrank.jobs.<job>.engine}. The scheduler hands an engine, once and before either starts,
 * every job it may run (logged and observed, not leased: the engine makes a run exclusive its own
 * way) and the definitions of those configured for it; the engine fires them, and runs them when
 * asked through {@link JobScheduler#runNow}.
 */
public interface JobEngine {

  /** The engine's name as configured: {@code task}. */
  String name();

  /**
   * Takes the jobs over.
   *
   * @param runnable every job by name, decorated to log and measure its runs
   * @param declared the definitions of the jobs configured to run on this engine
   */
  void adopt(Map<String, Job> runnable, Map<String, JobDefinition> declared);

  /**
   * Runs a job configured for this engine now, on the calling thread, as {@link
   * JobScheduler#runNow} promises.
   */
  @Nullable Object runNow(String job) throws Exception;
}
