package io.hotrank.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.SharedRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The GCRA limiter on the shared Redis (or the test cluster), from many threads on two clients. */
@Tag("cluster")
class GcraLimiterTest {

  private static SharedRedis one;
  private static SharedRedis two;

  @BeforeAll
  static void redis() {
    one = new SharedRedis();
    two = one.anotherClient();
  }

  @AfterAll
  static void close() throws Exception {
    two.close();
    one.close();
  }

  private static String prefix() {
    return one.prefix() + "gcra-" + UUID.randomUUID() + ":";
  }

  @Test
  void manyThreadsOnTwoClients_oneHotKey_admitExactlyTheQuota_eachRemainingCountOnce()
      throws Exception {
    String prefix = prefix();
    List<GcraLimiter> limiters =
        List.of(new GcraLimiter(one.template(), prefix), new GcraLimiter(two.template(), prefix));
    // One request an hour refills: within the test, the quota is all there is.
    GcraLimiter.Policy policy = new GcraLimiter.Policy("reads", 100, Duration.ofHours(100));
    List<GcraLimiter.Decision> decisions = new CopyOnWriteArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    try (ExecutorService pool = Executors.newFixedThreadPool(32)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 32; t++) {
        GcraLimiter limiter = limiters.get(t % 2);
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < 25; i++) {
                    decisions.add(limiter.decide(policy, "client-1"));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get();
      }
    }
    List<GcraLimiter.Decision> allowed =
        decisions.stream().filter(GcraLimiter.Decision::allowed).toList();
    assertThat(decisions).hasSize(800);
    assertThat(allowed).hasSize(100);
    // The script ran one decision at a time: each remaining count was handed out exactly once.
    assertThat(allowed.stream().map(GcraLimiter.Decision::remaining).sorted().toList())
        .isEqualTo(LongStream.range(0, 100).boxed().toList());
    Duration interval = policy.window().dividedBy(policy.quota());
    for (GcraLimiter.Decision refused : decisions.stream().filter(d -> !d.allowed()).toList()) {
      assertThat(refused.remaining()).isZero();
      assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(interval);
    }
    // Another client, and the same client under another policy, are not touched.
    assertThat(limiters.getFirst().decide(policy, "client-2").remaining()).isEqualTo(99);
    assertThat(
            limiters
                .getFirst()
                .decide(new GcraLimiter.Policy("ingest", 10, Duration.ofHours(1)), "client-1")
                .allowed())
        .isTrue();
  }

  @Test
  void aRefusedClient_isAdmittedAgainOnceItsRetryAfterHasPassed() {
    GcraLimiter limiter = new GcraLimiter(one.template(), prefix());
    GcraLimiter.Policy policy = new GcraLimiter.Policy("admin", 3, Duration.ofSeconds(3));
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.decide(policy, "c").allowed()).isTrue();
    }
    GcraLimiter.Decision refused = limiter.decide(policy, "c");
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1));
    await()
        .pollDelay(refused.retryAfter())
        .atMost(Duration.ofSeconds(5))
        .until(() -> limiter.decide(policy, "c").allowed());
  }

  /**
   * Quotas that do not divide their window into whole microseconds: an idle key still admits
   * exactly the quota at once, counting the remaining requests down to 0, and the in-memory limiter
   * used while Redis is down gives the same answers as the script.
   */
  @Test
  void quotasThatDoNotDivideTheirWindow_admitExactlyTheQuota_andTheLocalLimiterAgrees() {
    GcraLimiter limiter = new GcraLimiter(one.template(), prefix());
    LocalGcra local = new LocalGcra(Duration.ofMinutes(1), 1000, () -> 1_000_000_000_000L);
    for (GcraLimiter.Policy policy :
        List.of(
            // Intervals of over a second: nothing refills while a burst is decided.
            new GcraLimiter.Policy("a", 3, Duration.ofSeconds(10)),
            new GcraLimiter.Policy("b", 6, Duration.ofSeconds(10)),
            new GcraLimiter.Policy("c", 7, Duration.ofSeconds(60)),
            new GcraLimiter.Policy("d", 11, Duration.ofSeconds(60)),
            new GcraLimiter.Policy("e", 997, Duration.ofSeconds(1000)))) {
      List<Boolean> allowed = new ArrayList<>();
      List<Long> remaining = new ArrayList<>();
      List<Boolean> localAllowed = new ArrayList<>();
      List<Long> localRemaining = new ArrayList<>();
      for (long i = 0; i < policy.quota() + 2; i++) {
        GcraLimiter.Decision shared = limiter.decide(policy, "c");
        allowed.add(shared.allowed());
        remaining.add(shared.remaining());
        GcraLimiter.Decision mine = local.decide(policy, "c");
        localAllowed.add(mine.allowed());
        localRemaining.add(mine.remaining());
      }
      assertThat(allowed.stream().filter(a -> a).count())
          .as(policy.toString())
          .isEqualTo(policy.quota());
      assertThat(allowed.subList(0, (int) policy.quota()))
          .as(policy.toString())
          .doesNotContain(false);
      assertThat(remaining.subList(0, (int) policy.quota()))
          .as(policy.toString())
          .isEqualTo(
              LongStream.range(0, policy.quota())
                  .map(r -> policy.quota() - 1 - r)
                  .boxed()
                  .toList());
      assertThat(localAllowed.subList(0, (int) policy.quota() + 1))
          .as(policy + " local")
          .isEqualTo(
              java.util.stream.Stream.concat(
                      java.util.stream.Stream.generate(() -> true).limit(policy.quota()),
                      java.util.stream.Stream.of(false))
                  .toList());
      assertThat(localRemaining.subList(0, (int) policy.quota()))
          .as(policy + " local")
          .isEqualTo(remaining.subList(0, (int) policy.quota()));
    }
  }

  @Test
  void aPolicyOfMoreThanOneRequestAMicrosecond_isRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new GcraLimiter.Policy("x", 2_000_001, Duration.ofSeconds(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one a microsecond");
  }
}
