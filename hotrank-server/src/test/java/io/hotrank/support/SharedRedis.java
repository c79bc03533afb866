package io.hotrank.support;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A connection, for tests that drive a store directly, to the shared Redis ({@code
 * HOTRANK_TEST_REDIS_URL}) or, when none is named, to a Redis process of the test's own. Its keys
 * carry a prefix of their own: closing deletes them, never anyone else's, and stops the own Redis.
 */
public final class SharedRedis implements AutoCloseable {

  private final LettuceConnectionFactory connections;
  private final StringRedisTemplate redis;
  private final String prefix = "hrtest:" + UUID.randomUUID() + ":";
  private final @Nullable RedisProcess own;
  private final String url;

  public SharedRedis() {
    Optional<String> cluster = TestEngines.redisCluster();
    Optional<String> shared = TestEngines.env("HOTRANK_TEST_REDIS_URL");
    try {
      own = cluster.isPresent() || shared.isPresent() ? null : RedisProcess.start();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    if (cluster.isPresent()) {
      url = "cluster:" + cluster.get();
      connections =
          new LettuceConnectionFactory(
              new RedisClusterConfiguration(List.of(cluster.get().split(","))));
    } else {
      url = own == null ? shared.orElseThrow() : own.url();
      URI uri = URI.create(url);
      connections =
          new LettuceConnectionFactory(
              new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
    }
    connections.afterPropertiesSet();
    connections.start();
    redis = new StringRedisTemplate(connections);
    TestEngines.exercised("Redis");
  }

  public StringRedisTemplate template() {
    return redis;
  }

  /** The Redis URL, for other processes of the test ({@code cluster:<nodes>} on a cluster). */
  public String url() {
    return url;
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
    if (own != null) {
      try {
        own.close();
      } catch (Exception e) {
        throw new IllegalStateException("stopping the test's Redis", e);
      }
    }
  }
}
