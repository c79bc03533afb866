/**
 * Jobs: work that runs on a schedule, once per cycle across all instances.
 *
 * <p>A {@link io.hotrank.job.Job} is plain work given a {@link io.hotrank.job.JobContext}: the
 * scheduled fire time, the fencing token of the lease it runs under, and a cancellation signal.
 * {@link io.hotrank.job.JobBuilder} wraps it in decorators: the lease ({@code per-run} or {@code
 * leader}, on Redis or the database), a structured log line per run, and metrics (a timer per
 * outcome, a consecutive-failures gauge). {@link io.hotrank.job.JobScheduler} fires the jobs that
 * {@link io.hotrank.job.JobSource} beans declare, on their cron, and runs them on demand.
 */
@ApplicationModule(allowedDependencies = {"lock"})
@NullMarked
package io.hotrank.job;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
