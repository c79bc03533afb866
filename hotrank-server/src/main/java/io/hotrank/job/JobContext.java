package io.hotrank.job;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What a run of a job knows about itself. Immutable but for the result slot; a decorator derives
 * the context it passes inward with {@link #underLease}.
 */
public final class JobContext {

  private final String job;
  private final Instant scheduledAt;
  private final boolean manual;
  private final long fence;
  private final String parameters;
  private final BooleanSupplier cancelled;
  private final AtomicReference<@Nullable Object> result;

  private JobContext(
      String job,
      Instant scheduledAt,
      boolean manual,
      long fence,
      String parameters,
      BooleanSupplier cancelled,
      AtomicReference<@Nullable Object> result) {
    this.job = job;
    this.scheduledAt = scheduledAt;
    this.manual = manual;
    this.fence = fence;
    this.parameters = parameters;
    this.cancelled = cancelled;
    this.result = result;
  }

  /**
   * The context of a run before any lease.
   *
   * @param manual true for a run on demand, false for a scheduled one
   */
  public static JobContext of(
      String job, Instant scheduledAt, boolean manual, BooleanSupplier cancelled) {
    return of(job, scheduledAt, manual, "{}", cancelled);
  }

  /**
   * The context of a run before any lease, with parameters.
   *
   * @param parameters a JSON object the job reads its parameters from (a task's)
   */
  public static JobContext of(
      String job,
      Instant scheduledAt,
      boolean manual,
      String parameters,
      BooleanSupplier cancelled) {
    return new JobContext(
        job, scheduledAt, manual, 0, parameters, cancelled, new AtomicReference<>());
  }

  /**
   * This context under a lease (or a task's claim): its fence, and cancelled also when the lease is
   * lost.
   */
  public JobContext underLease(long fence, BooleanSupplier leaseLost) {
    return new JobContext(
        job,
        scheduledAt,
        manual,
        fence,
        parameters,
        () -> leaseLost.getAsBoolean() || cancelled.getAsBoolean(),
        result);
  }

  public String job() {
    return job;
  }

  /** The fire time this run belongs to (for a run on demand, when it was asked for). */
  public Instant scheduledAt() {
    return scheduledAt;
  }

  /** Whether the run was asked for (over HTTP) rather than fired by the schedule. */
  public boolean manual() {
    return manual;
  }

  /** The fencing token of the lease the run holds; 0 before the lease decorator. */
  public long fence() {
    return fence;
  }

  /** The run's parameters, a JSON object: a task's, or {@code {}}. */
  public String parameters() {
    return parameters;
  }

  /** Whether the run should stop: the lease was lost, or the service is shutting down. */
  public boolean cancelled() {
    return cancelled.getAsBoolean();
  }

  /** Stops the run if it {@linkplain #cancelled() should stop}. */
  public void throwIfCancelled() {
    if (cancelled()) {
      throw new JobCancelledException(job);
    }
  }

  /** Hands a result back to whoever asked for the run ({@link JobScheduler#runNow}). */
  public void report(Object value) {
    result.set(value);
  }

  /** What the job reported, or null. */
  public @Nullable Object result() {
    return result.get();
  }
}
