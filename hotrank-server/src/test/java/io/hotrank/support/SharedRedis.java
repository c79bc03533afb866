package io.hotrank.support;

import java.net.URI;
import java.util.UUID;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A connection to the shared Redis ({@code HOTRANK_TEST_REDIS_URL}, else localhost) for tests that
 * drive a store directly, with a key prefix of its own: closing deletes its keys, never anyone
 * else's.
 */
public final class SharedRedis implements AutoCloseable {

  private final LettuceConnectionFactory connections;
  private final StringRedisTemplate redis;
  private final String prefix = "hrtest:" + UUID.randomUUID() + ":";

  public SharedRedis() {
    URI uri =
        URI.create(TestEngines.env("HOTRANK_TEST_REDIS_URL").orElse("redis://127.0.0.1:6379"));
    connections =
        new LettuceConnectionFactory(
            new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
    connections.afterPropertiesSet();
    connections.start();
    redis = new StringRedisTemplate(connections);
    TestEngines.exercised("Redis");
  }

  public StringRedisTemplate template() {
    return redis;
  }

  /** The prefix of this connection's keys. */
  public String prefix() {
    return prefix;
  }

  @Override
  public void close() {
    var keys = redis.keys(prefix + "*");
    if (keys != null && !keys.isEmpty()) {
      redis.delete(keys);
    }
    connections.destroy();
  }
}
