package io.hotrank.lock;

import io.hotrank.redis.LuaScripts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Leases in Redis, one Lua script per operation. Per name, two keys sharing the hash tag {@code
 * {l:<name>}} (one Cluster slot): {@code <prefix>{l:<name>}:owner}, the holder's token, which
 * expires with the lease; and {@code <prefix>{l:<name>}}, a hash holding the fence counter and the
 * newest cycle taken, which never expires and is the only key a name leaves behind.
 */
public final class RedisLeaseStore implements LeaseStore {

  private static final Logger log = LoggerFactory.getLogger(RedisLeaseStore.class);

  private static final RedisScript<List> ACQUIRE = LuaScripts.load("lease-acquire.lua", List.class);
  private static final RedisScript<Long> RENEW = LuaScripts.load("lease-renew.lua", Long.class);
  private static final RedisScript<Long> RELEASE = LuaScripts.load("lease-release.lua", Long.class);
  private static final RedisScript<Long> CLAIM_CYCLE =
      LuaScripts.load("lease-claim-cycle.lua", Long.class);
  private static final RedisScript<List> INSPECT = LuaScripts.load("lease-inspect.lua", List.class);

  private final StringRedisTemplate redis;
  private final String prefix;
  private final InstanceId instance;
  private final LiveTokens live = new LiveTokens();

  /**
   * The highest fence seen per name: the floor of the next grant, so that tokens keep growing even
   * if Redis lost the counter and its clock went back.
   */
  private final Map<String, Long> highestFence = new ConcurrentHashMap<>();

  private volatile boolean warnedClockAhead;

  public RedisLeaseStore(StringRedisTemplate redis, String keyPrefix, InstanceId instance) {
    this.redis = redis;
    this.prefix = keyPrefix;
    this.instance = instance;
  }

  @Override
  public String kind() {
    return "redis";
  }

  @Override
  public Optional<Lease> tryAcquire(String name, Duration ttl, long cycle) {
    return live.acquiring(name, () -> acquire(name, ttl, cycle));
  }

  private Optional<Lease> acquire(String name, Duration ttl, long cycle) {
    String token = instance.newToken();
    live.add(name, token);
    List<String> args =
        new ArrayList<>(
            List.of(
                token,
                Long.toString(LeaseStore.ttlMillis(ttl)),
                Long.toString(cycle),
                Long.toString(highestFence.getOrDefault(name, 0L) + 1),
                Long.toString(CYCLE_LEAD_LIMIT.toMillis()),
                instance.takeoverTokens(),
                instance.ownTokens()));
    args.addAll(live.of(name));
    List<?> answer;
    try {
      answer = redis.execute(ACQUIRE, keys(name), args.toArray());
    } catch (RuntimeException e) {
      // Granted or not, no work of this process runs under it: the caller got no lease.
      live.remove(name, token);
      throw e;
    }
    if (answer == null || answer.size() < 2) {
      throw new IllegalStateException("lease acquisition of " + name + " answered " + answer);
    }
    long fence = Long.parseLong(String.valueOf(answer.getFirst()));
    if (fence == 0) {
      live.remove(name, token);
      if (((Number) answer.get(1)).longValue() == -3) {
        aheadOfRedis(name, cycle);
      }
      return Optional.empty();
    }
    highestFence.merge(name, fence, Math::max);
    return Optional.of(new Lease(name, token, fence));
  }

  @Override
  public boolean claimCycle(Lease lease, long cycle) {
    Long claimed =
        redis.execute(
            CLAIM_CYCLE,
            keys(lease.name()),
            lease.token(),
            Long.toString(cycle),
            Long.toString(CYCLE_LEAD_LIMIT.toMillis()));
    return claimed != null && claimed == 1L;
  }

  /** Said once per process: every tick of every per-run job would say it again. */
  private void aheadOfRedis(String name, long cycle) {
    if (!warnedClockAhead) {
      warnedClockAhead = true;
      log.warn(
          "Lease '{}': cycle {} refused, more than {} ahead of Redis's clock: this instance's"
              + " clock is wrong, and it takes no per-run cycle until it is fixed",
          name,
          java.time.Instant.ofEpochMilli(cycle),
          CYCLE_LEAD_LIMIT);
    }
  }

  @Override
  public boolean renew(Lease lease, Duration ttl) {
    Long renewed =
        redis.execute(
            RENEW,
            List.of(ownerKey(lease.name())),
            lease.token(),
            Long.toString(LeaseStore.ttlMillis(ttl)));
    return renewed != null && renewed == 1L;
  }

  @Override
  public boolean release(Lease lease) {
    try {
      Long released = redis.execute(RELEASE, List.of(ownerKey(lease.name())), lease.token());
      return released != null && released == 1L;
    } finally {
      live.remove(lease.name(), lease.token());
    }
  }

  @Override
  public void forget(Lease lease) {
    live.remove(lease.name(), lease.token());
  }

  @Override
  public long nowMillis() {
    Long now =
        redis.execute(
            (org.springframework.data.redis.core.RedisCallback<Long>)
                c -> c.serverCommands().time(java.util.concurrent.TimeUnit.MILLISECONDS));
    if (now == null) {
      throw new IllegalStateException("TIME inside a transaction or pipeline");
    }
    return now;
  }

  @Override
  public LeaseState inspect(String name) {
    List<?> answer = redis.execute(INSPECT, keys(name));
    if (answer == null || answer.size() < 4) {
      throw new IllegalStateException("lease inspection of " + name + " answered " + answer);
    }
    String owner = String.valueOf(answer.get(0));
    return new LeaseState(
        name,
        owner.isEmpty() ? null : new Lease(name, owner, 0).instance(),
        Long.parseLong(String.valueOf(answer.get(2))),
        ((Number) answer.get(1)).longValue(),
        Long.parseLong(String.valueOf(answer.get(3))));
  }

  private List<String> keys(String name) {
    return List.of(ownerKey(name), prefix + "{l:" + name + "}");
  }

  private String ownerKey(String name) {
    return prefix + "{l:" + name + "}:owner";
  }
}
