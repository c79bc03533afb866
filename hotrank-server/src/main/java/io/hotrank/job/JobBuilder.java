package io.hotrank.job;

import io.hotrank.lock.LeaseStore;
import io.hotrank.lock.LeaseWatchdog;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;

/**
 * Wraps a job in decorators, innermost first: each call wraps what was built so far. The scheduler
 * builds {@code of(job).logged(..).leased(..).observed(..)}: the log line sees the lease's fence,
 * and the metrics count runs that did not get the lease as skipped.
 */
public final class JobBuilder {

  private Job job;

  private JobBuilder(Job job) {
    this.job = job;
  }

  public static JobBuilder of(Job job) {
    return new JobBuilder(job);
  }

  /** A structured log line per run. */
  public JobBuilder logged(String instance, Ticker ticker) {
    job = new LoggedJob(job, instance, ticker);
    return this;
  }

  /** Runs only under the job's lease, held as its settings say. */
  public JobBuilder leased(LeaseStore store, LeaseWatchdog watchdog, JobStatus status) {
    job = new LeasedJob(job, store, watchdog, status);
    return this;
  }

  /** A timer per outcome, the consecutive-failures gauge and the status' last run. */
  public JobBuilder observed(MeterRegistry meters, JobStatus status, Clock clock, Ticker ticker) {
    job = new ObservedJob(job, status, meters, clock, ticker);
    return this;
  }

  public Job build() {
    return job;
  }
}
