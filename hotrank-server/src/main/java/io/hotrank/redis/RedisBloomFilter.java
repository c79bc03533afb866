package io.hotrank.redis;

import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.springframework.data.redis.connection.RedisStringCommands;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.core.types.Expiration;

/**
 * Bloom filters of positive ids in Redis, one bit string per space (a biz), so that a read of an id
 * that does not exist is answered without the database. Each id sets {@code k} bits chosen by
 * double hashing; a filter with all of an id's bits set says "may exist", one with any unset says
 * "certainly absent". Bits are only ever set, so deletions never make an existing id look absent.
 *
 * <p>Keys share the hash tag {@code {bloom:<space>}} (one Cluster slot, since rebuild scripts use
 * several): {@code <prefix>{bloom:<space>}:<m>x<k>} is the filter, named by its shape so that a
 * changed configuration starts a new filter instead of misreading the old one; {@code ...:next}
 * takes the adds made during a rebuild; {@code ...:built} holds the bits read from the database
 * until the rebuild swaps them in.
 *
 * <p>A filter answers only once built: a space without one (never built, or lost with Redis's data)
 * answers "may exist" for every id until {@link #rebuild} ran. An add that is lost would let the
 * filter deny an existing id: callers add before the id's row commits, {@link #add} failing drops
 * the filter, and each filter keeps a count of the ids it took ({@link #count}) for its rebuild job
 * to compare with the origin's.
 *
 * <p>Why by hand: the RedisBloom module is not part of Redis; Redisson's filter is a whole client
 * beside Lettuce, and neither rebuilds while adds go on. The sizing formulas are the textbook ones.
 */
public final class RedisBloomFilter {

  private static final RedisScript<List> CHECK = LuaScripts.load("bloom-check.lua", List.class);
  private static final RedisScript<Long> ADD = LuaScripts.load("bloom-add.lua", Long.class);
  private static final RedisScript<Long> BEGIN = LuaScripts.load("bloom-begin.lua", Long.class);
  private static final RedisScript<Long> SWAP = LuaScripts.load("bloom-swap.lua", Long.class);

  /** The golden-ratio increment of SplitMix64, which seeds the second hash. */
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  /**
   * A filter's size.
   *
   * @param bits m, the bits of the filter
   * @param hashes k, the bits each id sets
   */
  public record Shape(long bits, int hashes) {

    /** The textbook optimum for {@code expected} ids at false-positive rate {@code rate}. */
    public static Shape of(long expected, double rate) {
      if (expected < 1 || rate <= 0 || rate >= 1) {
        throw new IllegalArgumentException(
            "a Bloom filter needs expected ids >= 1 and a rate in (0, 1)");
      }
      long bits = (long) Math.ceil(-expected * Math.log(rate) / (Math.log(2) * Math.log(2)));
      int hashes = (int) Math.max(1, Math.round((double) bits / expected * Math.log(2)));
      return new Shape(Math.max(bits, 64), hashes);
    }
  }

  private final StringRedisTemplate redis;
  private final RedisRound round;
  private final String prefix;
  private final Shape shape;

  public RedisBloomFilter(StringRedisTemplate redis, String keyPrefix, Shape shape) {
    if (shape.bits() > (1L << 32)) {
      throw new IllegalArgumentException("a Redis bit string holds at most 2^32 bits");
    }
    this.redis = redis;
    this.round = new RedisRound(redis);
    this.prefix = keyPrefix;
    this.shape = shape;
  }

  public Shape shape() {
    return shape;
  }

  /** The filter's key for a space. */
  public String key(String space) {
    return prefix + "{bloom:" + space + "}:" + shape.bits() + "x" + shape.hashes();
  }

  /** Whether the space's filter is built (answers anything but "may exist"). */
  public boolean built(String space) {
    return Boolean.TRUE.equals(redis.hasKey(key(space)));
  }

  /**
   * The ids that certainly do not exist; none while the space's filter is not built. One round
   * trip.
   */
  public Set<Long> certainlyAbsent(String space, List<Long> ids) {
    Set<Long> absent = new HashSet<>();
    round.run(List.of(certainlyAbsent(space, ids, absent::addAll)));
    return absent;
  }

  /**
   * The part of a round that asks which ids certainly do not exist (none while the space's filter
   * is not built) and hands them to {@code into}.
   */
  public RedisRound.Part certainlyAbsent(String space, List<Long> ids, Consumer<Set<Long>> into) {
    return commands -> {
      if (ids.isEmpty()) {
        return () -> into.accept(Set.of());
      }
      byte[][] args = new byte[1 + ids.size() * shape.hashes()][];
      int next = 0;
      args[next++] = RedisRound.bytes(Integer.toString(shape.hashes()));
      for (long id : ids) {
        for (long position : positions(id)) {
          args[next++] = RedisRound.bytes(Long.toString(position));
        }
      }
      Supplier<List<?>> answer =
          RedisRound.script(
              commands,
              CHECK,
              ScriptOutputType.MULTI,
              new byte[][] {RedisRound.bytes(key(space))},
              args);
      return () -> {
        List<?> answers = answer.get();
        Set<Long> absent = new HashSet<>();
        if (answers != null && answers.size() == ids.size()) { // else not built
          for (int i = 0; i < ids.size(); i++) {
            if (((Number) answers.get(i)).longValue() == 0) {
              absent.add(ids.get(i));
            }
          }
        }
        into.accept(absent);
      };
    };
  }

  /**
   * Adds an id to the space's filter, and to a rebuild in progress. If Redis fails, the filter is
   * dropped so that it cannot deny the id; if dropping fails too, the exception says so.
   *
   * @throws org.springframework.dao.DataAccessException if neither the add nor the drop went
   *     through
   */
  public void add(String space, long id) {
    String key = key(space);
    List<String> positions = new ArrayList<>(shape.hashes());
    for (long position : positions(id)) {
      positions.add(Long.toString(position));
    }
    try {
      redis.execute(
          ADD, List.of(key, key + ":next", key + ":n", key + ":next:n"), positions.toArray());
    } catch (RuntimeException e) {
      redis.delete(List.of(key, key + ":next", key + ":n", key + ":next:n"));
      throw e;
    }
  }

  /**
   * Rebuilds the space's filter from every id the origin holds, while adds go on: they go to both
   * the live filter and the one being rebuilt, and the bits read here are OR-ed into the latter
   * when it is swapped in.
   *
   * @param ids supplies every id of the space to the given consumer
   * @param timeout how long the rebuild may take before its keys expire and it fails
   * @return whether the new filter was swapped in
   */
  public boolean rebuild(String space, Consumer<LongConsumer> ids, Duration timeout) {
    String key = key(space);
    String next = key + ":next";
    String built = key + ":built";
    redis.execute(
        BEGIN,
        List.of(next, next + ":n"),
        Long.toString(shape.bits() - 1),
        Long.toString(timeout.toMillis()));
    byte[] bits = new byte[(int) ((shape.bits() + 7) / 8)];
    long[] read = {0};
    ids.accept(
        id -> {
          read[0]++;
          for (long position : positions(id)) {
            bits[(int) (position >>> 3)] |= (byte) (0x80 >>> (position & 7));
          }
        });
    byte[] builtKey = built.getBytes(StandardCharsets.UTF_8);
    redis.execute(
        (RedisCallback<Boolean>)
            connection ->
                connection
                    .stringCommands()
                    .set(
                        builtKey,
                        bits,
                        Expiration.from(timeout),
                        RedisStringCommands.SetOption.upsert()));
    Long swapped =
        redis.execute(
            SWAP, List.of(key, next, built, key + ":n", next + ":n"), Long.toString(read[0]));
    return swapped != null && swapped == 1;
  }

  /**
   * How many ids the space's filter took (the ids read by its last rebuild plus every add since; it
   * may count an id twice, never none): fewer than the origin holds means an add was lost (the
   * process died between a create and its add, or Redis lost a write), and the filter must be
   * rebuilt. -1 when not built.
   */
  public long count(String space) {
    String n = redis.opsForValue().get(key(space) + ":n");
    return n == null || !built(space) ? -1 : Long.parseLong(n);
  }

  /** The id's k bit positions, by double hashing of two SplitMix64 mixes of it. */
  long[] positions(long id) {
    long h1 = mix(id);
    long h2 = mix(id + GOLDEN) | 1;
    long[] positions = new long[shape.hashes()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = Math.floorMod(h1 + i * h2, shape.bits());
    }
    return positions;
  }

  /** SplitMix64's finaliser: a fast 64-bit mix with good avalanche. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
