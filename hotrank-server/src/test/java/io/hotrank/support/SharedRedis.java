package io.hotrank.support;

import java.net.URI;
import java.util.List;
import java.util.Objects;
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
 *
 * <p>A test that needs two clients of one Redis (two "instances") takes the second from {@link
 * #anotherClient()}: two {@code new SharedRedis()} share a server only when the environment names
 * one, and on a machine without it each would start a Redis of its own.
 */
public final class SharedRedis implements AutoCloseable {

  private final LettuceConnectionFactory connections;
  private final StringRedisTemplate redis;
  private final String prefix = "hrtest:" + UUID.randomUUID() + ":";
  private final @Nullable RedisProcess own;
  private final String url;

  public SharedRedis() {
    this(named().orElse(null));
  }

  private SharedRedis(@Nullable String namedUrl) {
    this(namedUrl == null ? startOwn() : null, namedUrl);
  }

  private SharedRedis(@Nullable RedisProcess own, @Nullable String namedUrl) {
    this.own = own;
    this.url = own == null ? Objects.requireNonNull(namedUrl) : own.url();
    if (url.startsWith("cluster:")) {
      connections =
          new LettuceConnectionFactory(
              new RedisClusterConfiguration(
                  List.of(url.substring("cluster:".length()).split(","))));
    } else {
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

  /** The Redis the environment names: the test cluster, else the shared Redis. */
  private static Optional<String> named() {
    return TestEngines.redisCluster()
        .map(nodes -> "cluster:" + nodes)
        .or(() -> TestEngines.env("HOTRANK_TEST_REDIS_URL"));
  }

  private static RedisProcess startOwn() {
    try {
      return RedisProcess.start();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * A second client, with its own connections and key prefix, of the same Redis as this one. It
   * does not own the server: close it before this one.
   */
  public SharedRedis anotherClient() {
    return new SharedRedis(null, url);
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
