package io.hotrank.task;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;

/**
 * The runs this instance claimed and has not finished, by task name, and the slots they take
 * ({@code hotrank.task.max-concurrent}, a semaphore): what the poller fills, the runner empties and
 * the heartbeats renew. Gauged as {@code hotrank.task.running}. Thread-safe.
 */
final class ActiveRuns {

  private static final long POLL_MS = 50;

  private final Map<String, Claim> claims = new ConcurrentHashMap<>();
  private final Semaphore slots;

  ActiveRuns(int maxConcurrent, MeterRegistry meters) {
    this.slots = new Semaphore(maxConcurrent);
    meters.gauge("hotrank.task.running", claims, Map::size);
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

  int freeSlots() {
    return slots.availablePermits();
  }

  boolean takeSlot() {
    return slots.tryAcquire();
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
