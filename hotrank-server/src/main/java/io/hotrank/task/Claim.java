package io.hotrank.task;

import io.hotrank.task.TaskStore.Kind;
import org.jspecify.annotations.Nullable;

/**
 * A run this instance claimed and has not finished: what the worker runs and the heartbeat thread
 * renews. Its cancellation turns true, for good, when the run times out, when a renewal finds the
 * row taken over, or when renewals could not be written for the heartbeat timeout.
 */
final class Claim {

  final TaskRow task;
  final Kind kind;
  final long fence;
  final long fireTime;

  /** The database's time when the run was claimed (estimated from the last poll). */
  final long startedAt;

  /** Ticker reading at the claim, and at the send of the last renewal that was written. */
  final long claimedNanos;

  private volatile long renewedNanos;

  /** Ticker reading when the run started; {@link Long#MIN_VALUE} until it has. */
  private volatile long startedNanos = Long.MIN_VALUE;

  /** {@link #CLAIMED}, then {@link #STARTED} or {@link #RELEASED}, once. */
  private final java.util.concurrent.atomic.AtomicInteger state =
      new java.util.concurrent.atomic.AtomicInteger(CLAIMED);

  private static final int CLAIMED = 0;
  private static final int STARTED = 1;
  private static final int RELEASED = 2;

  private volatile @Nullable String lost;
  private volatile boolean timedOut;
  private volatile boolean completed;
  private volatile boolean completing;

  Claim(TaskRow task, Kind kind, long fence, long fireTime, long startedAt, long nanos) {
    this.task = task;
    this.kind = kind;
    this.fence = fence;
    this.fireTime = fireTime;
    this.startedAt = startedAt;
    this.claimedNanos = nanos;
    this.renewedNanos = nanos;
  }

  boolean manual() {
    return kind == Kind.TRIGGERED || kind == Kind.NOW || (kind == Kind.TAKEOVER && task.manual());
  }

  /** The attempt this run is: a takeover or a retry keeps its cycle's. */
  int attempt() {
    return manual() ? 0 : task.attempt();
  }

  boolean cancelled() {
    return lost != null || timedOut;
  }

  /** Why the claim was lost, or null while it holds. */
  @Nullable String lost() {
    return lost;
  }

  boolean timedOut() {
    return timedOut;
  }

  /** Whether its completion has been written: no renewal is due, a refused one means nothing. */
  boolean completed() {
    return completed;
  }

  void complete() {
    completed = true;
  }

  /**
   * Its completion is being written: a renewal refused from now on may be the completion's doing,
   * not a takeover's (a takeover refuses the completion too, which says so).
   */
  void completing() {
    completing = true;
  }

  boolean isCompleting() {
    return completing;
  }

  /**
   * The run starts, unless it was released while it waited for a worker: its timeout counts from
   * now, not from the claim (a claim may wait, {@link ActiveRuns}).
   *
   * @return false if it was released, or had started already
   */
  boolean tryStart(long nanos) {
    if (!state.compareAndSet(CLAIMED, STARTED)) {
      return false;
    }
    startedNanos = nanos;
    return true;
  }

  /** The claim, which never started, is given up: true the first time, and never once started. */
  boolean tryRelease() {
    return state.compareAndSet(CLAIMED, RELEASED);
  }

  boolean started() {
    return state.get() == STARTED;
  }

  long startedNanos() {
    return startedNanos;
  }

  long renewedNanos() {
    return renewedNanos;
  }

  void renewed(long sentNanos) {
    renewedNanos = sentNanos;
  }

  /** Marks the claim lost; true the first time. */
  synchronized boolean lose(String reason) {
    if (lost != null) {
      return false;
    }
    lost = reason;
    return true;
  }

  /** Marks the run timed out; true the first time. */
  synchronized boolean timeOut() {
    if (timedOut) {
      return false;
    }
    timedOut = true;
    return true;
  }
}
