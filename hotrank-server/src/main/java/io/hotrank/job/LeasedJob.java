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
  private static final int LEADER_FAILURES = 3;

  private @Nullable HeldLease leader;
  private int leaderFailures;

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
    // A leader keeps its lease across runs. A run asked for on an instance that does not lead
    // takes a lease for that run only: otherwise an instance that never fires the job (scheduling
    // off) would become its leader, keep the lease renewed, and no cycle would run again.
    boolean keep = status.settings().mode() == JobMode.LEADER && !(context.manual() && !leads());
    status.runFence(0);
    HeldLease lease;
    try {
      lease = keep ? leaderLease(context) : runLease(context);
      if (keep
          && !context.manual()
          && !store.claimCycle(lease.lease(), context.scheduledAt().toEpochMilli())) {
        throw new JobBusyException(name(), null); // a previous leader ran this cycle
      }
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
    boolean failed = true;
    try {
      inner.run(context.underLease(lease.lease().fence(), () -> !lease.isValid()));
      failed = false;
    } catch (JobCancelledException | StaleFenceException e) {
      failed = false;
      throw e;
    } finally {
      if (!keep) {
        status.holding(null);
        lease.release();
      } else {
        leaderRan(failed);
      }
    }
  }

  /** Whether this instance holds the leader lease. */
  private synchronized boolean leads() {
    return leader != null && leader.isValid();
  }

  /**
   * A leader that fails {@value #LEADER_FAILURES} runs in a row hands its lease back, so that an
   * instance in better health (its own database pool, its own network) can take over.
   */
  private synchronized void leaderRan(boolean failed) {
    leaderFailures = failed ? leaderFailures + 1 : 0;
    if (leaderFailures >= LEADER_FAILURES && leader != null) {
      log.warn(
          "Job '{}': {} failed runs in a row as leader; releasing the lease for another instance",
          name(),
          leaderFailures);
      leader.release();
      leader = null;
      status.holding(null);
      leaderFailures = 0;
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
