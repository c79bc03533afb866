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
 * checked against what the threads recorded. Each test uses fresh lease names. Run on Redis by
 * {@link RedisLeaseStoreTest} and on each database through {@link JdbcLeaseStoreContract}.
 */
abstract class LeaseStoreContract {

  private final List<LeaseWatchdog> watchdogs = new ArrayList<>();

  /** A store of the kind under test, as a process of the given identity would have it. */
  protected abstract LeaseStore store(InstanceId instance);

  /** A store of the kind under test, as an instance with the given id would have it. */
  protected LeaseStore store(String instance) {
    return store(InstanceId.of(instance));
  }

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
    CountingStore a = new CountingStore(store("instance-a"));
    LeaseStore b = store("instance-b");
    Duration ttl = Duration.ofSeconds(1);
    List<String> lost = new CopyOnWriteArrayList<>();
    a.release(a.tryAcquire(freshName(), ttl).orElseThrow()); // connected, scripts loaded
    HeldLease held =
        watchdog().acquire(a, name, ttl, 0, (lease, reason) -> lost.add(reason)).orElseThrow();

    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos(); // five TTLs
    int attempts = 0;
    while (System.nanoTime() < until) {
      assertThat(b.tryAcquire(name, ttl)).as("taken from a renewed holder").isEmpty();
      assertThat(held.isValid()).as("valid (lost: %s)", held.lostReason()).isTrue();
      attempts++;
      Thread.sleep(50);
    }
    assertThat(attempts).isGreaterThan(10);
    assertThat(a.renewals.get()).as("renewals in five TTLs").isGreaterThanOrEqualTo(12);
    assertThat(lost).isEmpty();

    assertThat(held.release()).isTrue();
    Thread.sleep(100); // a renewal already past its checks when release came may still land
    int renewalsAtRelease = a.renewals.get();
    assertThat(held.isValid()).isFalse();
    Lease next = b.tryAcquire(name, Duration.ofSeconds(5)).orElseThrow();
    Thread.sleep(ttl.toMillis()); // three renewal periods
    assertThat(a.renewals.get()).as("renewals after release").isEqualTo(renewalsAtRelease);
    assertThat(b.inspect(name).holder()).isEqualTo("instance-b");
    assertThat(lost).as("no loss reported after release").isEmpty();
    assertThat(next.fence()).isGreaterThan(held.lease().fence());
  }

  /** A store that counts the renewals sent through it. */
  private static final class CountingStore implements LeaseStore {
    private final LeaseStore store;
    private final AtomicInteger renewals = new AtomicInteger();

    CountingStore(LeaseStore store) {
      this.store = store;
    }

    @Override
    public String kind() {
      return store.kind();
    }

    @Override
    public Optional<Lease> tryAcquire(String name, Duration ttl, long cycle) {
      return store.tryAcquire(name, ttl, cycle);
    }

    @Override
    public boolean claimCycle(Lease lease, long cycle) {
      return store.claimCycle(lease, cycle);
    }

    @Override
    public boolean renew(Lease lease, Duration ttl) {
      renewals.incrementAndGet();
      return store.renew(lease, ttl);
    }

    @Override
    public boolean release(Lease lease) {
      return store.release(lease);
    }

    @Override
    public LeaseState inspect(String name) {
      return store.inspect(name);
    }

    @Override
    public long nowMillis() {
      return store.nowMillis();
    }
  }

  @Test
  void theStoresClock_isEpochMilliseconds() {
    long before = System.currentTimeMillis();
    long store = store("instance-a").nowMillis();
    // The store runs on this machine: the same clock, give or take rounding.
    assertThat(store).isBetween(before - 1000, System.currentTimeMillis() + 1000);
  }

  /**
   * Tokens are never below the store's clock in microseconds, so they keep growing when a counter
   * is lost or a job moves to the other store; and they still grow when grants come faster.
   */
  @Test
  void fences_followTheStoresClock_andStillIncreaseWithinAMicrosecond() {
    String name = freshName();
    LeaseStore a = store("instance-a");
    long before = (System.currentTimeMillis() - 5_000) * 1000;
    long previous = 0;
    for (int i = 0; i < 20; i++) {
      Lease lease = a.tryAcquire(name, Duration.ofSeconds(5)).orElseThrow();
      assertThat(lease.fence()).isGreaterThan(Math.max(previous, before));
      previous = lease.fence();
      a.release(lease);
    }
    assertThat(previous).isLessThan((System.currentTimeMillis() + 5_000) * 1000);
  }

  @Test
  void aLeaderClaimsEachCycleOnce_acrossHolders() {
    String name = freshName();
    LeaseStore a = store("instance-a");
    LeaseStore b = store("instance-b");
    long cycle = (System.currentTimeMillis() / 1000) * 1000;
    Lease first = a.tryAcquire(name, Duration.ofSeconds(10)).orElseThrow();
    assertThat(a.claimCycle(first, cycle)).isTrue();
    assertThat(a.claimCycle(first, cycle)).as("the same cycle again").isFalse();
    assertThat(b.claimCycle(new Lease(name, "instance-b/x", 0), cycle + 1000))
        .as("a claim without the lease")
        .isFalse();
    assertThat(a.release(first)).isTrue();

    Lease next = b.tryAcquire(name, Duration.ofSeconds(10)).orElseThrow();
    assertThat(b.claimCycle(next, cycle)).as("a cycle the previous leader ran").isFalse();
    assertThat(b.claimCycle(next, cycle + 1000)).isTrue();
    assertThat(b.release(next)).isTrue();
    assertThat(a.tryAcquire(name, Duration.ofSeconds(10), cycle + 1000))
        .as("a per-run grant of a cycle a leader claimed")
        .isEmpty();
    assertThat(a.tryAcquire(name, Duration.ofSeconds(10), cycle + 2000)).isPresent();
  }

  /** A cycle from an instance whose clock runs far ahead would shut the others out: refused. */
  @Test
  void aCycleFarAheadOfTheStoresClock_isRefused() {
    String name = freshName();
    LeaseStore a = store("instance-a");
    long farAhead = System.currentTimeMillis() + Duration.ofHours(2).toMillis();
    assertThat(a.tryAcquire(name, Duration.ofSeconds(10), farAhead)).isEmpty();
    Lease lease = a.tryAcquire(name, Duration.ofSeconds(10)).orElseThrow();
    assertThat(a.claimCycle(lease, farAhead)).isFalse();
    assertThat(a.inspect(name).cycle()).isZero();
    long now = (System.currentTimeMillis() / 1000) * 1000;
    assertThat(a.claimCycle(lease, now)).as("a cycle of now").isTrue();
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

  /**
   * A process whose name is exclusive (so its earlier process is dead) takes that process's lease
   * at once, with a higher fence; the earlier token can then neither renew nor release it. Nothing
   * else is taken over: the process's own leases, another name's (even one it begins), or any lease
   * when the name is not exclusive.
   */
  @Test
  void anExclusiveName_takesOverItsEarlierProcesssLease_atOnce_andOnlyThat() {
    String name = freshName();
    LeaseStore earlier = store(new InstanceId("node", "0000000a", true));
    Lease dead = earlier.tryAcquire(name, Duration.ofMinutes(5)).orElseThrow();

    assertThat(earlier.tryAcquire(name, Duration.ofMinutes(5))).as("its own process").isEmpty();
    assertThat(store(new InstanceId("node", "0000000b", false)).tryAcquire(name, ttl()))
        .as("the name, not exclusive")
        .isEmpty();
    assertThat(store(new InstanceId("no", "0000000c", true)).tryAcquire(name, ttl()))
        .as("a name that the holder's begins with")
        .isEmpty();
    assertThat(store(new InstanceId("node-2", "0000000d", true)).tryAcquire(name, ttl()))
        .as("another name")
        .isEmpty();

    LeaseStore restarted = store(new InstanceId("node", "0000000e", true));
    Lease taken = restarted.tryAcquire(name, ttl()).orElseThrow();
    assertThat(taken.fence()).isGreaterThan(dead.fence());
    assertThat(taken.instance()).isEqualTo("node");
    assertThat(earlier.renew(dead, ttl())).as("the earlier token renews").isFalse();
    assertThat(earlier.release(dead)).as("the earlier token releases").isFalse();
    assertThat(restarted.tryAcquire(name, ttl())).as("taken again by the same process").isEmpty();
    LeaseState state = restarted.inspect(name);
    assertThat(state.holder()).isEqualTo("node");
    assertThat(state.expiresInMillis()).isBetween(1L, ttl().toMillis());
    assertThat(restarted.release(taken)).isTrue();
  }

  /**
   * A grant this process gave up while the store still shows it (a lost lease; a release that a
   * Redis failover lost) is taken over at once by this process, with a higher fence, while another
   * instance waits for it to expire; a grant the process still counts on is never taken over.
   */
  @Test
  void aGrantThisProcessGaveUp_isTakenOverAtOnceByIt_butByNoOtherInstance() {
    String name = freshName();
    LeaseStore a = store("instance-a");
    LeaseStore b = store("instance-b");
    Lease given = a.tryAcquire(name, Duration.ofMinutes(5)).orElseThrow();
    assertThat(a.tryAcquire(name, ttl())).as("while it counts on the grant").isEmpty();

    a.forget(given); // as a lost lease does

    assertThat(b.tryAcquire(name, ttl())).as("another instance").isEmpty();
    Lease again = a.tryAcquire(name, ttl()).orElseThrow();
    assertThat(again.fence()).isGreaterThan(given.fence());
    assertThat(a.renew(given, ttl())).as("the grant given up").isFalse();
    assertThat(a.tryAcquire(name, ttl())).as("while it counts on the new grant").isEmpty();
    assertThat(a.release(again)).isTrue();
  }

  private static Duration ttl() {
    return Duration.ofSeconds(10);
  }
}
