package io.hotrank.cache;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisHashAsyncCommands;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Redis tier of a {@link TieredCache}: one hash per key ({@code v} version, {@code k} kind,
 * {@code d} value), written only by {@code cache-put.lua}, which refuses a lower version than the
 * one held. Keys carry no hash tag, so a Cluster spreads them over its nodes. Every batch is sent
 * as a pipeline of Lettuce's asynchronous commands (all in flight before any is awaited; on a
 * Cluster each goes straight to its node), which is one round trip per node.
 *
 * @param <K> the cache key
 * @param <V> the cached value
 */
public final class RedisVersionedTier<K, V> implements TieredCache.Remote<K, V> {

  /** Turns values into the text stored in Redis and back. */
  public interface Codec<V> {
    String encode(V value);

    V decode(String text);
  }

  private static final RedisScript<Long> PUT = LuaScripts.load("cache-put.lua", Long.class);
  private static final String PUT_SHA = PUT.getSha1();
  private static final byte[] PUT_TEXT = PUT.getScriptAsString().getBytes(StandardCharsets.UTF_8);
  private static final byte[][] FIELDS = {bytes("v"), bytes("k"), bytes("d")};
  private static final long AWAIT_SECONDS = 5;

  /** Most commands in flight at once. */
  private static final int PIPELINE = 1000;

  private final StringRedisTemplate redis;
  private final Function<K, String> keyOf;
  private final Codec<V> codec;

  /**
   * @param keyOf the Redis key of a cache key, prefix included
   */
  public RedisVersionedTier(StringRedisTemplate redis, Function<K, String> keyOf, Codec<V> codec) {
    this.redis = redis;
    this.keyOf = keyOf;
    this.codec = codec;
  }

  @Override
  public Map<K, TieredCache.Versioned<V>> getAll(List<K> keys) {
    Map<K, TieredCache.Versioned<V>> found = new HashMap<>();
    redis.execute(
        (RedisCallback<Void>)
            connection -> {
              @SuppressWarnings("unchecked")
              var hashes =
                  (RedisHashAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
              List<RedisFuture<List<KeyValue<byte[], byte[]>>>> futures = new ArrayList<>();
              for (K key : keys) {
                futures.add(hashes.hmget(bytes(keyOf.apply(key)), FIELDS));
              }
              for (int i = 0; i < keys.size(); i++) {
                List<KeyValue<byte[], byte[]>> fields = await(futures.get(i));
                if (fields.size() < 3 || !fields.get(0).hasValue() || !fields.get(1).hasValue()) {
                  continue;
                }
                long version = Long.parseLong(text(fields.get(0).getValue()));
                switch (text(fields.get(1).getValue())) {
                  case "d" ->
                      found.put(
                          keys.get(i),
                          new TieredCache.Versioned<>(
                              version, codec.decode(text(fields.get(2).getValue()))));
                  case "a" -> found.put(keys.get(i), new TieredCache.Versioned<>(version, null));
                  default -> {} // a floor: a miss
                }
              }
              return null;
            });
    return found;
  }

  @Override
  public void putAll(List<TieredCache.Put<K, V>> puts) {
    List<Write> writes = new ArrayList<>(puts.size());
    for (TieredCache.Put<K, V> put : puts) {
      V value = put.entry().value();
      writes.add(
          new Write(
              keyOf.apply(put.key()),
              put.entry().version(),
              value == null ? "a" : "d",
              value == null ? "" : codec.encode(value),
              put.ttl().toMillis()));
    }
    run(writes);
  }

  @Override
  public void invalidate(K key, long version, java.time.Duration ttl) {
    run(List.of(new Write(keyOf.apply(key), version, "f", "", ttl.toMillis())));
  }

  private record Write(String key, long version, String kind, String value, long ttlMillis) {

    byte[][] args() {
      return new byte[][] {
        bytes(Long.toString(version)), bytes(kind), bytes(value), bytes(Long.toString(ttlMillis))
      };
    }
  }

  /**
   * Runs the put script for every write, pipelined {@value #PIPELINE} at a time; loads the script
   * once if Redis lacks it.
   */
  private void run(List<Write> writes) {
    for (int from = 0; from < writes.size(); from += PIPELINE) {
      pipeline(writes.subList(from, Math.min(writes.size(), from + PIPELINE)));
    }
  }

  private void pipeline(List<Write> writes) {
    redis.execute(
        (RedisCallback<Void>)
            connection -> {
              @SuppressWarnings("unchecked")
              var scripts =
                  (RedisScriptingAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
              List<RedisFuture<Long>> futures = new ArrayList<>(writes.size());
              for (Write w : writes) {
                futures.add(
                    scripts.evalsha(
                        PUT_SHA,
                        ScriptOutputType.INTEGER,
                        new byte[][] {bytes(w.key())},
                        w.args()));
              }
              for (int i = 0; i < writes.size(); i++) {
                try {
                  await(futures.get(i));
                } catch (RedisSystemException e) {
                  if (!(e.getCause() instanceof RedisNoScriptException)) {
                    throw e;
                  }
                  Write w = writes.get(i);
                  // This node has not seen the script yet: EVAL sends and caches it.
                  await(
                      scripts.eval(
                          PUT_TEXT,
                          ScriptOutputType.INTEGER,
                          new byte[][] {bytes(w.key())},
                          w.args()));
                }
              }
              return null;
            });
  }

  private static <T> T await(RedisFuture<T> future) {
    try {
      return future.get(AWAIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new QueryTimeoutException("Redis did not answer in " + AWAIT_SECONDS + " s", e);
    } catch (ExecutionException e) {
      throw new RedisSystemException("cache command failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisSystemException("interrupted waiting for Redis", e);
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
