package io.hotrank.limit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.limit.GcraLimiter.Decision;
import io.hotrank.limit.GcraLimiter.Policy;
import io.hotrank.limit.LimitProperties.WhenRedisDown;
import io.hotrank.redis.RedisUnavailableException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * What an instance decides while Redis does not answer, in each mode, on a clock the test moves;
 * the in-memory limiter gives the script's answers. Redis itself is in GcraLimiterTest and, dead,
 * in RateLimitRedisDownTest.
 */
class RateLimitsTest {

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  private static final java.time.Clock CLOCK =
      java.time.Clock.fixed(
          java.time.Instant.parse("2026-01-01T00:00:00Z"), java.time.ZoneOffset.UTC);

  private static final BiFunction<Policy, String, Decision> REDIS_DOWN =
      (policy, client) -> {
        throw new RedisUnavailableException("rate limit", "connection refused", null);
      };

  private static LimitProperties properties(WhenRedisDown mode, int instances) {
    return new LimitProperties(
        true,
        "X-Api-Key",
        java.util.Set.of(),
        10,
        Duration.ofSeconds(1),
        0,
        Duration.ofSeconds(1),
        4,
        Duration.ofSeconds(2),
        mode,
        instances,
        Duration.ofMillis(250),
        30,
        Duration.ofSeconds(1));
  }

  private RateLimits limits(WhenRedisDown mode, int instances) {
    return new RateLimits(properties(mode, instances), REDIS_DOWN, meters, nanos::get, CLOCK);
  }

  private static List<Boolean> admitted(RateLimits limits, RouteGroup group, int n, String c) {
    List<Boolean> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(limits.decide(group, c).admitted());
    }
    return out;
  }

  @Test
  void share_enforcesThisInstancesShareInMemory_andRefillsAtTheQuotasPace() {
    RateLimits limits = limits(WhenRedisDown.SHARE, 2);
    // Ingest is 10 per second; this instance's share is 5, all at once, then one every 200 ms.
    assertThat(admitted(limits, RouteGroup.INGEST, 7, "a"))
        .containsExactly(true, true, true, true, true, false, false);
    RateLimits.Verdict refused = limits.decide(RouteGroup.INGEST, "a");
    assertThat(refused.policy().quota()).as("headers state the share enforced").isEqualTo(5);
    assertThat(refused.decision().remaining()).isZero();
    assertThat(refused.decision().retryAfter()).isEqualTo(Duration.ofMillis(200));
    assertThat(refused.decision().reset()).isEqualTo(Duration.ofSeconds(1));
    assertThat(admitted(limits, RouteGroup.INGEST, 1, "b")).containsExactly(true);
    nanos.addAndGet(Duration.ofMillis(199).toNanos());
    assertThat(admitted(limits, RouteGroup.INGEST, 1, "a")).containsExactly(false);
    nanos.addAndGet(Duration.ofMillis(1).toNanos());
    assertThat(admitted(limits, RouteGroup.INGEST, 2, "a")).containsExactly(true, false);
    // Admin (4 per 2 s) keeps its own count for the same client: a share of 2.
    assertThat(admitted(limits, RouteGroup.ADMIN, 3, "a")).containsExactly(true, true, false);
    // Reads have no limit.
    assertThat(limits.decide(RouteGroup.READS, "a")).isNull();

    assertThat(meters.get("hotrank.limits.local").gauge().value()).isEqualTo(1.0);
    assertThat(count("ingest", "allowed", "local")).isEqualTo(7);
    assertThat(count("ingest", "limited", "local")).isEqualTo(5);
  }

  @Test
  void aShareIsAtLeastOneRequest() {
    RateLimits limits = limits(WhenRedisDown.SHARE, 50);
    // 10 per second over 50 instances: each may still admit one per second.
    assertThat(admitted(limits, RouteGroup.INGEST, 2, "a")).containsExactly(true, false);
  }

  @Test
  void open_admitsEverything_andClosed_refusesEverything_withoutADecisionToShow() {
    RateLimits open = limits(WhenRedisDown.OPEN, 1);
    assertThat(admitted(open, RouteGroup.INGEST, 50, "a")).doesNotContain(false);
    assertThat(open.decide(RouteGroup.INGEST, "a").decision()).isNull();
    assertThat(count("ingest", "allowed", "none")).isEqualTo(51);

    RateLimits closed = limits(WhenRedisDown.CLOSED, 1);
    assertThat(admitted(closed, RouteGroup.ADMIN, 5, "a")).doesNotContain(true);
    assertThat(count("admin", "unavailable", "none")).isEqualTo(5);
  }

  @Test
  void withRedisAnswering_itsDecisionIsTaken_andTheLocalGaugeDropsBackToZero() {
    boolean[] down = {true};
    RateLimits limits =
        new RateLimits(
            properties(WhenRedisDown.CLOSED, 1),
            (policy, client) -> {
              if (down[0]) {
                return REDIS_DOWN.apply(policy, client);
              }
              return new Decision(client.equals("a"), 3, Duration.ZERO, Duration.ofMillis(400));
            },
            meters,
            nanos::get,
            CLOCK);
    assertThat(limits.decide(RouteGroup.INGEST, "a").admitted()).isFalse();
    assertThat(meters.get("hotrank.limits.local").gauge().value()).isEqualTo(1.0);
    down[0] = false;
    assertThat(limits.decide(RouteGroup.INGEST, "a").admitted()).isTrue();
    assertThat(limits.decide(RouteGroup.INGEST, "b").admitted()).isFalse();
    assertThat(meters.get("hotrank.limits.local").gauge().value()).isZero();
    assertThat(count("ingest", "allowed", "redis")).isEqualTo(1);
    assertThat(count("ingest", "limited", "redis")).isEqualTo(1);
  }

  @Test
  void windowsMustBeWholeSeconds_forTheHeader() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new LimitProperties(
                    true,
                    "X-Api-Key",
                    java.util.Set.of(),
                    10,
                    Duration.ofMillis(1500),
                    0,
                    Duration.ofSeconds(1),
                    1,
                    Duration.ofSeconds(1),
                    WhenRedisDown.SHARE,
                    1,
                    Duration.ofMillis(250),
                    30,
                    Duration.ofSeconds(1)))
        .hasMessageContaining("hotrank.limits.ingest-window");
  }

  @Test
  void recentDecisions_areKeptPerGroup_newestFirst_andBounded() {
    RateLimits limits =
        new RateLimits(
            properties(WhenRedisDown.SHARE, 1),
            (policy, client) ->
                new Decision(!client.equals("over"), 2, Duration.ZERO, Duration.ZERO),
            meters,
            nanos::get,
            CLOCK);
    for (int i = 0; i < RecentDecisions.PER_GROUP + 5; i++) {
      limits.decide(RouteGroup.INGEST, "c" + i);
    }
    limits.decide(RouteGroup.ADMIN, "over");
    List<RateLimits.Recent> ingest = limits.recent(RouteGroup.INGEST);
    assertThat(ingest).hasSize(RecentDecisions.PER_GROUP);
    assertThat(ingest.getFirst().client()).isEqualTo("c" + (RecentDecisions.PER_GROUP + 4));
    assertThat(ingest.getLast().client()).isEqualTo("c5");
    assertThat(limits.recent(RouteGroup.ADMIN))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.outcome()).isEqualTo("limited");
              assertThat(r.decided()).isEqualTo("redis");
              assertThat(r.at()).isEqualTo(CLOCK.instant());
            });
    assertThat(limits.recent(RouteGroup.CONSOLE)).isEmpty();
  }

  @Test
  void theConsole_isARouteGroupOfItsOwn() {
    assertThat(RouteGroup.of("GET", "/console")).isEqualTo(RouteGroup.CONSOLE);
    assertThat(RouteGroup.of("POST", "/console/boards/hot/controls")).isEqualTo(RouteGroup.CONSOLE);
    assertThat(RouteGroup.of("GET", "/consoles")).isNull();
    assertThat(RouteGroup.of("GET", "/api/v1/admin/jobs")).isEqualTo(RouteGroup.ADMIN);
  }

  private double count(String group, String outcome, String decided) {
    var counter =
        meters
            .find("hotrank.limits.decisions")
            .tags("group", group, "outcome", outcome, "decided", decided)
            .counter();
    return counter == null ? 0 : counter.count();
  }
}
