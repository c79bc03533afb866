package io.hotrank.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link LeaseStore} promises, driven against a real store by two "instances" (two store
 * objects with different instance ids, as two processes would have) and several threads, and
 * checked against what the threads recorded. Each test uses fresh lease names.
 */
public abstract class LeaseStoreContract {

  private final List<LeaseWatchdog> watchdogs = new ArrayList<>();

  /** A store of the kind under test, as an instance with the given id would have it. */
  protected abstract LeaseStore store(String instance);

  /** A lease name no other test uses. */
  protected static String freshName() {
    return "contract-" + UUID.randomUUID();
  }

  @AfterEach
  void closeWatchdogs() {
    watchdogs.forEach(LeaseWatchdog::close);
  }

  private LeaseWatchdog watchdog() {
    LeaseWatchdog watchdog = new LeaseWatchdog(Ticker.system(), new SimpleMeterRegistry());
    watchdogs.add(watchdog);
    return watchdog;
  }

  /**
   * Threads of two instances hammer one name. Every holder records its entry and exit in one shared
   * history; the history must show no overlap, and the fencing tokens in grant order must strictly
   * increase.
   */
  @Test
  void mutualExclusion_underContention_andFencesIncreaseInGrantOrder() throws Exception {
    String name = freshName();
    LeaseStore[] instances = {store("instance-a"), store("instance-b")};
    List<String> history = new CopyOnWriteArrayList<>();
    List<Long> fences = new CopyOnWriteArrayList<>();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    int threads = 8;
    long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        LeaseStore store = instances[t % 2];
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  while (System.nanoTime() < until) {
                    Optional<Lease> lease = store.tryAcquire(name, Duration.ofSeconds(10));
                    if (lease.isEmpty()) {
                      continue;
                    }
                    if (inside.incrementAndGet() != 1) {
                      overlaps.incrementAndGet();
                    }
                    history.add("enter " + thread + " " + lease.get().fence());
                    fences.add(lease.get().fence());
                    Thread.onSpinWait();
                    history.add("exit " + thread + " " + lease.get().fence());
                    inside.decrementAndGet();
                    assertThat(store.release(lease.get())).isTrue();
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(overlaps.get()).as("holders overlapping").isZero();
    assertThat(fences).as("grants in 3 s").hasSizeGreaterThan(20);
    for (int i = 0; i + 1 < history.size(); i += 2) {
      String enter = history.get(i);
      String exit = history.get(i + 1);
      assertThat(enter).startsWith("enter ");
      assertThat(exit).isEqualTo("exit " + enter.substring("enter ".length()));
    }
    for (int i = 1; i < fences.size(); i++) {
      assertThat(fences.get(i)).isGreaterThan(fences.get(i - 1));
    }
  }

  @Test
  void renewalAndRelease_byANonOwner_areRefused() {
    String name = freshName();
    LeaseStore a = store("instance-a");
    LeaseStore b = store("instance-b");
    Lease held = a.tryAcquire(name, Duration.ofSeconds(10)).orElseThrow();
    Lease forged = new Lease(name, "instance-b/" + UUID.randomUUID(), held.fence());

    assertThat(b.renew(forged, Duration.ofMinutes(5))).isFalse();
    assertThat(b.release(forged)).isFalse();
    assertThat(b.tryAcquire(name, Duration.ofSeconds(10))).isEmpty();
    LeaseState state = b.inspect(name);
    assertThat(state.holder()).isEqualTo("instance-a");
    assertThat(state.fence()).isEqualTo(held.fence());
    assertThat(state.expiresInMillis()).isBetween(1L, 10_000L);

    assertThat(a.release(held)).isTrue();
    assertThat(a.release(held)).as("a second release").isFalse();
    assertThat(a.renew(held, Duration.ofSeconds(10))).as("renewal after release").isFalse();
    assertThat(b.inspect(name).holder()).isNull();
  }

  /** Whichever of a renewal and a release runs first, the lease is free afterwards. */
  @Test
  void aRenewalRacingARelease_neverResurrectsTheLease() throws Exception {
    LeaseStore a = store("instance-a");
    LeaseStore b = store("instance-b");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 100; round++) {
        String name = freshName();
        Lease held = a.tryAcquire(name, Duration.ofSeconds(30)).orElseThrow();
        CountDownLatch start = new CountDownLatch(1);
        Future<Boolean> renewal =
            pool.submit(
                () -> {
                  start.await();
                  return a.renew(held, Duration.ofSeconds(30));
                });
        Future<Boolean> release =
            pool.submit(
                () -> {
                  start.await();
                  return a.release(held);
                });
        start.countDown();
        renewal.get(10, TimeUnit.SECONDS);
        assertThat(release.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(b.tryAcquire(name, Duration.ofSeconds(1)))
            .as("round %d: free after the race", round)
            .isPresent();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theWatchdog_keepsALeaseAcrossManyTtls_andStopsForGoodOnRelease() throws Exception {
    String name = freshName();
    LeaseStore a = store("instance-a");
    LeaseStore b = store("instance-b");
    Duration ttl = Duration.ofMillis(400);
    List<String> lost = new CopyOnWriteArrayList<>();
    a.release(a.tryAcquire(freshName(), ttl).orElseThrow()); // connected, scripts loaded
    HeldLease held =
        watchdog().acquire(a, name, ttl, 0, (lease, reason) -> lost.add(reason)).orElseThrow();

    long until = System.nanoTime() + Duration.ofMillis(2400).toNanos(); // six TTLs
    int attempts = 0;
    while (System.nanoTime() < until) {
      assertThat(b.tryAcquire(name, ttl)).as("taken from a renewed holder").isEmpty();
      assertThat(held.isValid()).as("valid (lost: %s)", held.lostReason()).isTrue();
      attempts++;
      Thread.sleep(20);
    }
    assertThat(attempts).isGreaterThan(10);
    assertThat(lost).isEmpty();

    assertThat(held.release()).isTrue();
    assertThat(held.isValid()).isFalse();
    Lease next = b.tryAcquire(name, Duration.ofSeconds(5)).orElseThrow();
    Thread.sleep(ttl.toMillis()); // a renewal after release would show as b losing its lease
    assertThat(b.inspect(name).holder()).isEqualTo("instance-b");
    assertThat(lost).as("no renewal, hence no loss, after release").isEmpty();
    assertThat(next.fence()).isGreaterThan(held.lease().fence());
  }

  @Test
  void aDeadHoldersLease_expires_andTheNextHolderGetsAHigherFence() {
    String name = freshName();
    LeaseStore a = store("instance-a");
    LeaseStore b = store("instance-b");
    Lease dead = a.tryAcquire(name, Duration.ofMillis(500)).orElseThrow();
    assertThat(b.tryAcquire(name, Duration.ofSeconds(5))).isEmpty();

    Lease next =
        await("the dead holder's lease expires")
            .atMost(Duration.ofSeconds(5))
            .pollInterval(Duration.ofMillis(25))
            .until(() -> b.tryAcquire(name, Duration.ofSeconds(5)), Optional::isPresent)
            .orElseThrow();
    assertThat(next.fence()).isGreaterThan(dead.fence());
    assertThat(a.renew(dead, Duration.ofSeconds(5))).as("renewing after expiry").isFalse();
    assertThat(a.release(dead)).as("releasing after expiry").isFalse();
    assertThat(b.inspect(name).holder()).isEqualTo("instance-b");
  }

  @Test
  void aLostRenewal_firesTheListenerOnce_andInvalidatesTheLease() {
    String name = freshName();
    LeaseStore a = store("instance-a");
    LeaseStore b = store("instance-b");
    List<String> lost = new CopyOnWriteArrayList<>();
    Duration ttl = Duration.ofMillis(600);
    HeldLease held =
        watchdog().acquire(a, name, ttl, 0, (lease, reason) -> lost.add(reason)).orElseThrow();
    // Someone frees it behind the holder's back (an operator, a store that lost its data).
    assertThat(a.release(held.lease())).isTrue();
    b.tryAcquire(name, Duration.ofSeconds(10)).orElseThrow();

    await("the watchdog notices").atMost(Duration.ofSeconds(3)).until(() -> !lost.isEmpty());
    assertThat(held.isValid()).isFalse();
    assertThat(held.lostReason()).contains("refused");
    assertThat(lost).hasSize(1);
  }

  @Test
  void aCycle_isGrantedOnce_evenAfterRelease() {
    String name = freshName();
    LeaseStore a = store("instance-a");
    LeaseStore b = store("instance-b");
    long cycle = 1_764_480_000_000L;
    Lease first = a.tryAcquire(name, Duration.ofSeconds(10), cycle).orElseThrow();
    assertThat(a.release(first)).isTrue();

    assertThat(b.tryAcquire(name, Duration.ofSeconds(10), cycle)).as("same cycle").isEmpty();
    assertThat(b.tryAcquire(name, Duration.ofSeconds(10), cycle - 1000)).as("older").isEmpty();
    Lease next = b.tryAcquire(name, Duration.ofSeconds(10), cycle + 1000).orElseThrow();
    assertThat(next.fence()).isGreaterThan(first.fence());
    assertThat(b.inspect(name).cycle()).isEqualTo(cycle + 1000);
    assertThat(b.release(next)).isTrue();
    assertThat(a.tryAcquire(name, Duration.ofSeconds(10))).as("outside any cycle").isPresent();
  }
}
