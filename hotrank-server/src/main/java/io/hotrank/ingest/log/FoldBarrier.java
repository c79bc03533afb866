package io.hotrank.ingest.log;

import io.hotrank.ingest.FoldBehindException;
import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits until the fold has passed a position, for every caller of a manual recompute or rebuild at
 * once through one fold loop of its own: a hundred concurrent recomputes fold on one thread and
 * hold one database connection, not a hundred (which would drain the pool that ingest needs).
 *
 * <p>A caller is served by a fold that began after it arrived: a fold that began earlier may have
 * seen one of its events as still uncommitted and left it in the cursor's gaps, even though the
 * position moved past it. The loop folds (and reads the cursor after each attempt) while anyone
 * waits and is not yet served, and stops when every caller has been served or given up, so a fold
 * in progress when everyone left finishes by itself and no other follows it. A failed attempt
 * serves nobody. Folds serialise on the cursor's row lock, so this loop beside the scheduled folder
 * (here or on another instance) changes no count.
 */
final class FoldBarrier {

  private static final Logger log = LoggerFactory.getLogger(FoldBarrier.class);
  private static final long IDLE_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  /** One fold attempt: whether it folded anything, and the cursor read after it. */
  record Attempt(boolean folded, FoldCursor cursor) {}

  private final Supplier<Attempt> foldOnce;
  private final Ticker ticker;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition advanced = lock.newCondition();
  // All guarded by lock.
  private final List<Waiter> waiting = new ArrayList<>();
  private @Nullable Thread loop; // the running loop, if any
  private long begun; // attempts begun by the loop, ever
  private long succeeded; // the number of the last attempt that succeeded
  private long position = Long.MIN_VALUE; // the cursor's position after attempt `succeeded`
  private long foldNo = -1;
  private @Nullable String failure; // the last attempt's failure, if it failed

  /** A caller: the attempts begun before it arrived, and the position it waits for. */
  private record Waiter(long arrivedAt, long head) {}

  FoldBarrier(Supplier<Attempt> foldOnce, Ticker ticker) {
    this.foldOnce = foldOnce;
    this.ticker = ticker;
  }

  /**
   * Waits until a fold that began after this call leaves the position at or past {@code head}.
   *
   * @return the number of the last fold at that point
   * @throws FoldBehindException past {@code timeout}, naming the last failure if any
   */
  long awaitPast(long head, Duration timeout) {
    long deadline = ticker.read() + timeout.toNanos();
    lock.lock();
    Waiter waiter = new Waiter(begun, head);
    waiting.add(waiter);
    try {
      while (!served(waiter)) {
        if (loop == null) { // none yet, or the last one died of an Error
          loop = Thread.ofVirtual().name("fold-barrier").unstarted(this::loop);
          loop.start();
        }
        long left = deadline - ticker.read();
        if (left <= 0) {
          throw new FoldBehindException(
              timeout,
              "accepted up to seq "
                  + head
                  + (failure == null ? "" : "; the last fold attempt failed: " + failure));
        }
        advanced.awaitNanos(left);
      }
      return foldNo;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FoldBehindException(timeout, "interrupted");
    } finally {
      waiting.remove(waiter);
      lock.unlock();
    }
  }

  /** How many callers are waiting now (what a test waits on before it lets a fold end). */
  int waiting() {
    lock.lock();
    try {
      return waiting.size();
    } finally {
      lock.unlock();
    }
  }

  /** Whether an attempt begun after {@code waiter} arrived succeeded and passed its head. */
  private boolean served(Waiter waiter) {
    return succeeded > waiter.arrivedAt() && position >= waiter.head();
  }

  private void loop() {
    try {
      foldWhileWaited();
    } finally {
      lock.lock();
      try {
        if (loop == Thread.currentThread()) { // it ended abnormally: let a waiter start another
          loop = null;
          advanced.signalAll();
        }
      } finally {
        lock.unlock();
      }
    }
  }

  private void foldWhileWaited() {
    while (true) {
      long attempt;
      lock.lock();
      try {
        if (waiting.stream().allMatch(this::served)) {
          loop = null;
          return;
        }
        attempt = ++begun;
      } finally {
        lock.unlock();
      }
      Attempt result = null;
      String failed = null;
      try {
        result = foldOnce.get();
      } catch (RuntimeException e) {
        failed = e.getClass().getSimpleName();
        log.debug("A fold before a recompute failed; trying again", e);
      }
      lock.lock();
      try {
        failure = failed;
        // A failed attempt serves nobody: only a success moves what callers wait on.
        if (result != null) {
          succeeded = attempt;
          position = result.cursor().position();
          foldNo = result.cursor().foldNo();
          advanced.signalAll();
        }
      } finally {
        lock.unlock();
      }
      if (result == null || !result.folded()) {
        LockSupport.parkNanos(IDLE_PAUSE_NANOS);
      }
    }
  }
}
