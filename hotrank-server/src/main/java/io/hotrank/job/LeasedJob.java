package io.hotrank.job;

import io.hotrank.lock.HeldLease;
import io.hotrank.lock.LeaseStore;
import io.hotrank.lock.LeaseWatchdog;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the job only under its lease (named as the job), with the lease's fence and with
 * cancellation when it is lost. {@code per-run}: acquired before each run, keyed by the scheduled
 * fire time, released after. {@code leader}: acquired once and kept by the watchdog across runs;
 * re-acquired at a later tick if lost. Throws {@link JobBusyException} when the lease is not
 * granted. Runs of one job on one instance are serialized by the scheduler.
 */
final class LeasedJob implements Job {

  private static final Logger log = LoggerFactory.getLogger(LeasedJob.class);

  private final Job inner;
  private final LeaseStore store;
  private final LeaseWatchdog watchdog;
  private final JobStatus status;
  private @Nullable HeldLease leader;

  /** Whether the last acquire failed in the store: its outage is logged when it starts and ends. */
  private volatile boolean storeFailing;

  LeasedJob(Job inner, LeaseStore store, LeaseWatchdog watchdog, JobStatus status) {
    this.inner = inner;
    this.store = store;
    this.watchdog = watchdog;
    this.status = status;
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public void run(JobContext context) throws Exception {
    boolean leaderMode = status.settings().mode() == JobMode.LEADER;
    status.runFence(0);
    HeldLease lease;
    try {
      lease = leaderMode ? leaderLease(context) : runLease(context);
      storeUp();
    } catch (JobBusyException busy) {
      storeUp();
      throw busy;
    } catch (RuntimeException e) {
      if (!storeFailing) {
        storeFailing = true;
        log.warn(
            "Job '{}': lease store {} failed, no run until it answers: {}",
            name(),
            store.kind(),
            e.toString());
      }
      throw e;
    }
    status.holding(lease);
    status.runFence(lease.lease().fence());
    try {
      inner.run(context.underLease(lease.lease().fence(), () -> !lease.isValid()));
    } finally {
      if (!leaderMode) {
        status.holding(null);
        lease.release();
      }
    }
  }

  private void storeUp() {
    if (storeFailing) {
      storeFailing = false;
      log.info("Job '{}': lease store {} answers again", name(), store.kind());
    }
  }

  private HeldLease runLease(JobContext context) {
    long cycle = context.manual() ? 0 : context.scheduledAt().toEpochMilli();
    return watchdog
        .acquire(store, name(), status.settings().leaseTtl(), cycle, status::leaseLost)
        .orElseThrow(() -> busy(context));
  }

  private synchronized HeldLease leaderLease(JobContext context) {
    if (leader != null && leader.isValid()) {
      return leader;
    }
    if (leader != null) {
      leader.release(); // lost or expired locally: free it in case the store still holds it
      leader = null;
    }
    leader =
        watchdog
            .acquire(store, name(), status.settings().leaseTtl(), 0, status::leaseLost)
            .orElseThrow(() -> busy(context));
    return leader;
  }

  /** Names the holder for a run asked for over HTTP; a scheduled tick does not spend a query. */
  private JobBusyException busy(JobContext context) {
    return new JobBusyException(name(), context.manual() ? store.inspect(name()).holder() : null);
  }
}
