package io.hotrank.redis;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Commands of several callers sent to Redis as one pipelined round trip: every part puts its
 * commands on Lettuce's asynchronous API, and only then is any answer awaited. On a Cluster each
 * command goes straight to its node, so a round is one round trip per node. (Spring's {@code
 * executePipelined} is not available on cluster connections, hence the native API.)
 */
public final class RedisRound {

  /** How long an answer is awaited before the round fails; callers bound it tighter. */
  private static final Duration AWAIT = Duration.ofSeconds(5);

  /** One caller's share of a round. */
  @FunctionalInterface
  public interface Part {

    /**
     * Sends this part's commands without waiting for them.
     *
     * @return what then awaits their answers and takes them in
     */
    Runnable send(RedisClusterAsyncCommands<byte[], byte[]> commands);
  }

  private final StringRedisTemplate redis;

  public RedisRound(StringRedisTemplate redis) {
    this.redis = redis;
  }

  /** Sends every part's commands, then takes in every answer, in the order of the parts. */
  public void run(List<Part> parts) {
    if (parts.isEmpty()) {
      return;
    }
    redis.execute(
        (RedisCallback<Void>)
            connection -> {
              @SuppressWarnings("unchecked")
              var commands =
                  (RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
              List<Runnable> receivers = new ArrayList<>(parts.size());
              for (Part part : parts) {
                receivers.add(part.send(commands));
              }
              receivers.forEach(Runnable::run);
              return null;
            });
  }

  /**
   * Sends a script by its SHA1; awaiting the answer sends the script's text instead if the node has
   * not seen it yet (once per node and script, at a round trip's cost).
   */
  public static <T> Supplier<T> script(
      RedisClusterAsyncCommands<byte[], byte[]> commands,
      RedisScript<?> script,
      ScriptOutputType type,
      byte[][] keys,
      byte[][] args) {
    RedisFuture<T> sent = commands.evalsha(script.getSha1(), type, keys, args);
    return () -> {
      try {
        return await(sent);
      } catch (RedisSystemException e) {
        if (!(e.getCause() instanceof RedisNoScriptException)) {
          throw e;
        }
        return await(commands.eval(bytes(script.getScriptAsString()), type, keys, args));
      }
    };
  }

  /**
   * An answer, awaited at most {@link #AWAIT}.
   *
   * @throws QueryTimeoutException if it did not come in time
   * @throws RedisSystemException if the command failed or the wait was interrupted
   */
  public static <T> T await(RedisFuture<T> future) {
    return await(future, AWAIT);
  }

  /**
   * An answer, awaited at most {@code timeout}.
   *
   * @throws QueryTimeoutException if it did not come in time
   * @throws RedisSystemException if the command failed or the wait was interrupted
   */
  public static <T> T await(RedisFuture<T> future, Duration timeout) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new QueryTimeoutException("Redis did not answer in " + timeout.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      // As Spring's own translation does for the synchronous API: a timeout or a lost connection
      // is a storage failure the caller may retry (503), not a bug.
      Throwable cause = e.getCause();
      if (cause instanceof RedisCommandTimeoutException) {
        throw new QueryTimeoutException("Redis command timed out: " + cause.getMessage(), cause);
      }
      if (cause instanceof RedisConnectionException) {
        throw new RedisConnectionFailureException("Redis connection failed: " + cause, cause);
      }
      throw new RedisSystemException("Redis command failed: " + cause, cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisSystemException("interrupted waiting for Redis", e);
    }
  }

  public static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  public static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
