package io.hotrank.job;

import io.hotrank.lock.HeldLease;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * What this instance knows of one job: its settings, its last run here, its consecutive failures
 * here and the lease it holds. Written by the decorators, read by the admin view. Thread-safe.
 */
public final class JobStatus {

  /** A finished run. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "JobRun")
  public record Run(
      Instant scheduledAt,
      Instant startedAt,
      Instant endedAt,
      String outcome,
      long fence,
      @Nullable String error) {}

  private final String job;
  private final JobSettings settings;
  private final AtomicInteger consecutiveFailures = new AtomicInteger();
  private volatile @Nullable Run lastRun;
  private volatile @Nullable HeldLease held;
  private volatile @Nullable String lastLeaseLoss;
  private volatile long runFence;

  public JobStatus(String job, JobSettings settings) {
    this.job = job;
    this.settings = settings;
  }

  public String job() {
    return job;
  }

  public JobSettings settings() {
    return settings;
  }

  /** The last run on this instance that got its lease, or null. */
  public @Nullable Run lastRun() {
    return lastRun;
  }

  /** Failed runs in a row on this instance (0 after a success). */
  public int consecutiveFailures() {
    return consecutiveFailures.get();
  }

  AtomicInteger consecutiveFailuresGauge() {
    return consecutiveFailures;
  }

  /** The lease this instance holds for the job, or null. */
  public @Nullable HeldLease held() {
    HeldLease lease = held;
    return lease != null && lease.isValid() ? lease : null;
  }

  /** Why the last lease of the job held here was lost, or null if none was. */
  public @Nullable String lastLeaseLoss() {
    return lastLeaseLoss;
  }

  /** The watchdog's callback: the run in progress sees it through its cancellation signal. */
  void leaseLost(HeldLease lease, String reason) {
    lastLeaseLoss = "fence " + lease.lease().fence() + ": " + reason;
  }

  /** Frees the lease held here, if any (shutdown), so another instance takes over at once. */
  void releaseHeld() {
    HeldLease lease = held;
    held = null;
    if (lease != null) {
      lease.release();
    }
  }

  void holding(@Nullable HeldLease lease) {
    held = lease;
  }

  /** The fence of the run in progress or just ended (0 if it got no lease). */
  long runFence() {
    return runFence;
  }

  void runFence(long fence) {
    runFence = fence;
  }

  void finished(Run run) {
    lastRun = run;
    switch (run.outcome()) {
      case "succeeded" -> consecutiveFailures.set(0);
      case "failed" -> consecutiveFailures.incrementAndGet();
      // skipped, cancelled and rejected say nothing about the job's health
      default -> {}
    }
  }
}
