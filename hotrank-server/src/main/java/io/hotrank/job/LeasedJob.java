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
 * fire time, released after. {@code leader}: acquired once and kept by the watchdog across runs,
 * each scheduled run first claiming its cycle in the store; re-acquired at a later tick if lost.
 * Throws {@link JobBusyException} when the lease or the cycle is not granted. Runs of one job on
 * one instance are serialized by the scheduler.
 */
final class LeasedJob implements Job {

  private static final Logger log = LoggerFactory.getLogger(LeasedJob.class);

  /** Scheduled runs in a row that fail, or whose cycle is refused, before a leader steps down. */
  private static final int LEADER_STRIKES = 3;

  /** Ticks a leader that stepped down sits out, so that another instance takes the lease. */
  private static final int STEP_DOWN_TICKS = 3;

  private final Job inner;
  private final LeaseStore store;
  private final LeaseWatchdog watchdog;
  private final JobStatus status;

  /** Guarded by this. */
  private @Nullable HeldLease leader;

  private int strikes;
  private int sitOut;

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
  public boolean frequent() {
    return inner.frequent();
  }

  @Override
  public void run(JobContext context) throws Exception {
    boolean leaderMode = status.settings().mode() == JobMode.LEADER;
    boolean scheduledLeaderRun = leaderMode && !context.manual();
    status.runFence(0);
    HeldLease lease;
    boolean keep;
    try {
      // A leader keeps its lease across runs. A run asked for on an instance that does not lead
      // takes a lease for that run only: otherwise an instance that never fires the job
      // (scheduling off) would become its leader, keep the lease renewed, and no cycle would run.
      HeldLease led = leaderMode ? leaderLease(context) : null;
      keep = led != null;
      lease = keep ? led : runLease(context);
      if (scheduledLeaderRun
          && !store.claimCycle(lease.lease(), context.scheduledAt().toEpochMilli())) {
        strike("its cycle was refused (run by a previous leader, or this clock is off)");
        throw new JobBusyException(name(), null);
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
      } else if (scheduledLeaderRun) {
        if (failed) {
          strike("it failed");
        } else {
          clearStrikes();
        }
      }
    }
  }

  /**
   * The leader lease for this run: the one held if still valid; for a scheduled run, a newly
   * acquired one; for a run asked for, null when this instance does not lead.
   */
  private synchronized @Nullable HeldLease leaderLease(JobContext context) {
    if (leader != null && leader.isValid()) {
      return leader;
    }
    if (leader != null) {
      leader.release(); // lost or expired locally: free it in case the store still holds it
      leader = null;
      status.holding(null);
    }
    if (context.manual()) {
      return null;
    }
    if (sitOut > 0) {
      sitOut--;
      throw new JobBusyException(name(), null);
    }
    leader =
        watchdog
            .acquire(store, name(), status.settings().leaseTtl(), 0, status::leaseLost)
            .orElseThrow(() -> busy(context));
    status.holding(leader);
    return leader;
  }

  /**
   * A leader whose scheduled runs fail, or whose cycles are refused, {@value #LEADER_STRIKES} times
   * in a row hands its lease back and sits out a few ticks, so that an instance in better health
   * (its own database pool, network, clock) can take over.
   */
  private synchronized void strike(String why) {
    if (++strikes < LEADER_STRIKES || leader == null) {
      return;
    }
    log.warn(
        "Job '{}': {} scheduled runs in a row went wrong as leader (last: {}); handing the lease"
            + " to another instance",
        name(),
        strikes,
        why);
    leader.release();
    leader = null;
    status.holding(null);
    strikes = 0;
    sitOut = STEP_DOWN_TICKS;
  }

  private synchronized void clearStrikes() {
    strikes = 0;
  }

  private void storeUp() {
    if (storeFailing) {
      storeFailing = false;
      log.info("Job '{}': lease store {} answers again", name(), store.kind());
    }
  }

  private HeldLease runLease(JobContext context) {
    long cycle = context.manual() ? 0 : context.scheduledAt().toEpochMilli();
    HeldLease lease =
        watchdog
            .acquire(store, name(), status.settings().leaseTtl(), cycle, status::leaseLost)
            .orElseThrow(() -> busy(context));
    status.holding(lease);
    return lease;
  }

  /** Names the holder for a run asked for over HTTP; a scheduled tick does not spend a query. */
  private JobBusyException busy(JobContext context) {
    return new JobBusyException(name(), context.manual() ? store.inspect(name()).holder() : null);
  }
}
