package io.hotrank.limit;

import io.hotrank.limit.GcraLimiter.Decision;
import io.hotrank.limit.GcraLimiter.Policy;
import io.hotrank.limit.LimitProperties.WhenRedisDown;
import io.hotrank.redis.RedisUnavailableException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Decides whether a client's request in a route group may go on: by the shared limiter in Redis,
 * or, while Redis does not answer, as {@code hotrank.limits.when-redis-down} says (this instance's
 * share in memory, everything admitted, or everything refused).
 *
 * <p>Metrics: {@code hotrank.limits.decisions{group,outcome,decided}} counts decisions, {@code
 * outcome} being {@code allowed}, {@code limited} (429) or {@code unavailable} (503, fail-closed),
 * and {@code decided} being {@code redis}, {@code local} or {@code none} (fail-open or
 * fail-closed); {@code hotrank.limits.local} is 1 while the last decision could not reach Redis.
 * Thread-safe.
 */
public final class RateLimits {

  /**
   * What was decided for one request.
   *
   * @param policy the group's policy
   * @param decision the limiter's decision, or null when Redis did not answer and the instance
   *     fails open or closed
   * @param admitted whether the request may go on
   */
  public record Verdict(Policy policy, @Nullable Decision decision, boolean admitted) {}

  /**
   * One recent decision, as the operator console lists it.
   *
   * @param at when it was made (this instance's clock)
   * @param client the client as limited: {@code a:<address>} or {@code k:<hash of its key>}
   * @param outcome {@code allowed}, {@code limited} or {@code unavailable}
   * @param decided {@code redis}, {@code local} or {@code none}
   * @param remaining requests the client could still make at once, or null when nothing decided
   */
  public record Recent(
      Instant at, String client, String outcome, String decided, @Nullable Long remaining) {}

  private final Map<RouteGroup, Policy> policies = new EnumMap<>(RouteGroup.class);
  private final Map<RouteGroup, Policy> shares = new EnumMap<>(RouteGroup.class);
  private final BiFunction<Policy, String, Decision> shared;
  private final LocalGcra local;
  private final WhenRedisDown whenRedisDown;
  private final MeterRegistry meters;
  private final AtomicInteger deciding = new AtomicInteger();
  private final Map<String, Counter> counters = new java.util.concurrent.ConcurrentHashMap<>();
  private final RecentDecisions recent;

  /**
   * @param shared decides in Redis; throws {@link RedisUnavailableException} when it cannot
   * @param clock stamps the recent decisions the console lists
   */
  public RateLimits(
      LimitProperties properties,
      BiFunction<Policy, String, Decision> shared,
      MeterRegistry meters,
      LongSupplier nanoTime,
      Clock clock) {
    this.recent = new RecentDecisions(clock);
    this.shared = shared;
    this.whenRedisDown = properties.whenRedisDown();
    this.meters = meters;
    put(RouteGroup.INGEST, properties.ingestQuota(), properties.ingestWindow(), properties);
    put(RouteGroup.READS, properties.readsQuota(), properties.readsWindow(), properties);
    put(RouteGroup.ADMIN, properties.adminQuota(), properties.adminWindow(), properties);
    put(RouteGroup.CONSOLE, properties.consoleQuota(), properties.consoleWindow(), properties);
    Duration longest =
        policies.values().stream()
            .map(Policy::window)
            .max(Duration::compareTo)
            .orElse(Duration.ofSeconds(1));
    this.local = new LocalGcra(longest, 100_000, nanoTime);
    meters.gauge("hotrank.limits.local", deciding);
  }

  private void put(RouteGroup group, long quota, Duration window, LimitProperties properties) {
    if (quota > 0) {
      policies.put(group, new Policy(group.policyName(), quota, window));
      long share = Math.max(1, quota / properties.instances());
      shares.put(group, new Policy(group.policyName(), share, window));
    }
  }

  /** The verdict on one request of {@code client} in {@code group}, or null if it has no limit. */
  public @Nullable Verdict decide(RouteGroup group, String client) {
    Policy policy = policies.get(group);
    if (policy == null) {
      return null;
    }
    Verdict verdict;
    String decided;
    try {
      verdict = verdict(policy, shared.apply(policy, client));
      decided = "redis";
      deciding.set(0);
    } catch (RedisUnavailableException e) {
      deciding.set(1);
      switch (whenRedisDown) {
        case SHARE -> {
          // The headers then state this instance's share: what it enforces.
          Policy share = shares.get(group);
          verdict = verdict(share, local.decide(share, client));
          decided = "local";
        }
        case OPEN -> {
          verdict = new Verdict(policy, null, true);
          decided = "none";
        }
        case CLOSED -> {
          verdict = new Verdict(policy, null, false);
          decided = "none";
        }
        default -> throw new IllegalStateException(whenRedisDown.name());
      }
    }
    String outcome =
        verdict.admitted() ? "allowed" : verdict.decision() == null ? "unavailable" : "limited";
    counter(group, outcome, decided).increment();
    Decision decision = verdict.decision();
    recent.add(group, client, outcome, decided, decision == null ? null : decision.remaining());
    return verdict;
  }

  /** Each limited group's policy (a group with quota 0 has none), in declaration order. */
  public Map<RouteGroup, Policy> policies() {
    return java.util.Collections.unmodifiableMap(policies);
  }

  /**
   * The last decisions of a group on this instance, newest first, at most {@value
   * RecentDecisions#PER_GROUP}; for the operator console.
   */
  public List<Recent> recent(RouteGroup group) {
    return recent.of(group);
  }

  private static Verdict verdict(Policy policy, Decision decision) {
    return new Verdict(policy, decision, decision.allowed());
  }

  private Counter counter(RouteGroup group, String outcome, String decided) {
    // Held, not looked up in the registry by name and tags on every request.
    return counters.computeIfAbsent(
        group.policyName() + "/" + outcome + "/" + decided,
        key -> register(group, outcome, decided));
  }

  private Counter register(RouteGroup group, String outcome, String decided) {
    return meters.counter(
        "hotrank.limits.decisions",
        "group",
        group.policyName(),
        "outcome",
        outcome,
        "decided",
        decided);
  }
}
