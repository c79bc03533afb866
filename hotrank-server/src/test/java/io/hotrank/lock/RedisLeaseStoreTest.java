package io.hotrank.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.SharedRedis;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The lease contract on the shared Redis ({@code HOTRANK_TEST_REDIS_URL}, else localhost). */
@Tag("cluster")
class RedisLeaseStoreTest extends LeaseStoreContract {

  private static SharedRedis shared;
  private static StringRedisTemplate redis;
  private static String PREFIX;

  @BeforeAll
  static void connect() {
    shared = new SharedRedis();
    redis = shared.template();
    PREFIX = shared.prefix();
  }

  @AfterAll
  static void disconnect() {
    shared.close();
  }

  @Override
  protected LeaseStore store(InstanceId instance) {
    return new RedisLeaseStore(redis, PREFIX, instance);
  }

  /**
   * One counter per name and nothing else once released: the owner key goes with the lease, and
   * both keys share the name's hash tag (one Cluster slot).
   */
  @Test
  void aNameLeavesOneKey_andItsKeysShareAHashTag() {
    String name = freshName();
    LeaseStore store = store("instance-a");
    for (int i = 0; i < 5; i++) {
      store.release(store.tryAcquire(name, Duration.ofSeconds(5)).orElseThrow());
    }
    assertThat(redis.keys(PREFIX + "*" + name + "*")).containsExactly(PREFIX + "{l:" + name + "}");
  }

  /** A Redis that lost the counter (restarted empty) still hands out higher tokens. */
  @Test
  void fences_keepGrowing_whenTheCounterIsLost() {
    String name = freshName();
    LeaseStore store = store("instance-a");
    Lease before = store.tryAcquire(name, Duration.ofSeconds(5)).orElseThrow();
    store.release(before);
    redis.delete(PREFIX + "{l:" + name + "}");
    Lease after = store("instance-b").tryAcquire(name, Duration.ofSeconds(5)).orElseThrow();
    assertThat(after.fence()).isGreaterThan(before.fence());
  }
}
