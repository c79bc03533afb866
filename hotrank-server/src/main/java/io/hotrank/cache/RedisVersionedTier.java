package io.hotrank.cache;

import io.hotrank.redis.LuaScripts;
import io.hotrank.redis.RedisRound;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
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
public final class RedisVersionedTier<K, V> implements RemoteTier<K, V> {

  /** Turns values into the text stored in Redis and back. */
  public interface Codec<V> {
    String encode(V value);

    V decode(String text);
  }

  private static final RedisScript<Long> PUT = LuaScripts.load("cache-put.lua", Long.class);
  private static final byte[][] FIELDS = {bytes("v"), bytes("k"), bytes("d")};

  /** Most commands in flight at once. */
  private static final int PIPELINE = 1000;

  private final RedisRound round;
  private final Function<K, String> keyOf;
  private final Codec<V> codec;

  /**
   * @param keyOf the Redis key of a cache key, prefix included
   */
  public RedisVersionedTier(RedisRound round, Function<K, String> keyOf, Codec<V> codec) {
    this.round = round;
    this.keyOf = keyOf;
    this.codec = codec;
  }

  @Override
  public RedisRound.Part getAll(List<K> keys, Consumer<Map<K, Versioned<V>>> into) {
    return commands -> {
      List<RedisFuture<List<KeyValue<byte[], byte[]>>>> futures = new ArrayList<>(keys.size());
      for (K key : keys) {
        futures.add(commands.hmget(bytes(keyOf.apply(key)), FIELDS));
      }
      return () -> {
        Map<K, Versioned<V>> found = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
          List<KeyValue<byte[], byte[]>> fields = RedisRound.await(futures.get(i));
          if (fields.size() < 3 || !fields.get(0).hasValue() || !fields.get(1).hasValue()) {
            continue;
          }
          long version = Long.parseLong(text(fields.get(0).getValue()));
          switch (text(fields.get(1).getValue())) {
            case "d" ->
                found.put(
                    keys.get(i),
                    new Versioned<>(version, codec.decode(text(fields.get(2).getValue()))));
            case "a" -> found.put(keys.get(i), new Versioned<>(version, null));
            default -> {} // a floor: a miss
          }
        }
        into.accept(found);
      };
    };
  }

  @Override
  public void putAll(List<RemotePut<K, V>> puts) {
    List<Write> writes = new ArrayList<>(puts.size());
    for (RemotePut<K, V> put : puts) {
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
  public void invalidate(K key, long version, Duration ttl) {
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
    round.run(
        List.of(
            commands -> {
              List<Supplier<Long>> answers = new ArrayList<>(writes.size());
              for (Write w : writes) {
                answers.add(
                    RedisRound.script(
                        commands,
                        PUT,
                        ScriptOutputType.INTEGER,
                        new byte[][] {bytes(w.key())},
                        w.args()));
              }
              return () -> answers.forEach(Supplier::get);
            }));
  }

  private static byte[] bytes(String text) {
    return RedisRound.bytes(text);
  }

  private static String text(byte[] bytes) {
    return RedisRound.text(bytes);
  }
}
