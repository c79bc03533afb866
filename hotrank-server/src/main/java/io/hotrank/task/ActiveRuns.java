package io.hotrank.task;

import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The runs this instance claimed and has not finished, by task name, and the slots they take (a
 * semaphore): what the poller fills, the runner empties and the heartbeats renew. Gauged as {@code
 * hotrank.task.running}. Thread-safe.
 *
 * <p>An instance runs at most {@code hotrank.task.max-concurrent} tasks at once, and claims for
 * free workers only, with one exception: while its runs are short (their moving mean under {@value
 * #SHORT_RUN_MS} ms), a batch claim may take as many again, which wait for a worker, so that a
 * backlog of short tasks costs one claim per batch rather than one per finished run. A task claimed
 * ahead is heartbeated from its claim, as a running one is, and released at shutdown if it never
 * started ({@link TaskRunner#submit}); with short runs it waits about one run. Once runs grow long,
 * claims go back to free workers only, so that a task is not held here while another instance has a
 * worker free.
 */
final class ActiveRuns {

  private static final long POLL_MS = 50;

  /** Runs whose moving mean is under this are short enough to claim ahead for. */
  static final long SHORT_RUN_MS = 100;

  private final Map<String, Claim> claims = new ConcurrentHashMap<>();
  private final Semaphore slots;
  private final int maxConcurrent;

  /** Whether claims may go ahead of free workers at all (batch claims only). */
  private final boolean ahead;

  private final Ticker ticker;

  /** Moving mean of run durations (ns), a run weighing 1/8; negative before the first run. */
  private final AtomicLong meanRunNanos = new AtomicLong(-1);

  ActiveRuns(int maxConcurrent, boolean ahead, Ticker ticker, MeterRegistry meters) {
    this.maxConcurrent = maxConcurrent;
    this.ahead = ahead;
    this.ticker = ticker;
    this.slots = new Semaphore(2 * maxConcurrent);
    meters.gauge("hotrank.task.running", claims, Map::size);
  }

  /** Records how long a worker's run took, for {@link #claimable}. */
  void ran(long nanos) {
    meanRunNanos.updateAndGet(mean -> mean < 0 ? nanos : mean + (nanos - mean) / 8);
  }

  /** Whether runs are short enough to claim ahead for: on the mean, and none running longer. */
  boolean shortRuns() {
    long mean = meanRunNanos.get();
    long limit = TimeUnit.MILLISECONDS.toNanos(SHORT_RUN_MS);
    if (mean < 0 || mean >= limit) {
      return false;
    }
    long now = ticker.read();
    for (Claim claim : claims.values()) {
      if (claim.started() && now - claim.startedNanos() >= limit) {
        return false;
      }
    }
    return true;
  }

  /** How many claims this instance holds: running, or claimed and waiting for a worker. */
  int held() {
    return 2 * maxConcurrent - slots.availablePermits();
  }

  /**
   * How many more tasks a batch claim may take: for free workers, and ahead while runs are short.
   */
  int claimable() {
    return Math.max(0, (shortRuns() ? 2 * maxConcurrent : maxConcurrent) - held());
  }

  void add(Claim claim) {
    claims.put(claim.task.name(), claim);
  }

  /** Forgets a claim, unless a later claim of the same task replaced it. */
  void remove(Claim claim) {
    claims.remove(claim.task.name(), claim);
  }

  @Nullable Claim get(String task) {
    return claims.get(task);
  }

  boolean holds(String task) {
    return claims.containsKey(task);
  }

  Collection<Claim> all() {
    return claims.values();
  }

  Set<String> tasks() {
    return claims.keySet();
  }

  boolean isEmpty() {
    return claims.isEmpty();
  }

  /** Workers with no claim to run. */
  int freeSlots() {
    return Math.max(0, maxConcurrent - held());
  }

  /** Takes a slot for one claim, if {@link #claimable} (the poller's thread alone claims). */
  boolean takeSlot() {
    return claimable() > 0 && slots.tryAcquire();
  }

  boolean takeSlots(int count) {
    return slots.tryAcquire(count);
  }

  void releaseSlot() {
    slots.release();
  }

  void releaseSlots(int count) {
    slots.release(count);
  }

  /**
   * Waits, at most {@code limit}, while a run is active. Bounded by a count of real sleeps, not by
   * a clock reading, so a test's settable clock can never make shutdown wait forever.
   */
  void awaitNone(Duration limit) {
    for (long polls = limit.toMillis() / POLL_MS; polls > 0 && !claims.isEmpty(); polls--) {
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
