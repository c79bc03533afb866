package io.hotrank.redis;

import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
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
 * <p>Each space has a filter of its own size ({@link Shape}): its rebuild job sizes it from the
 * space's count of ids, and rebuilds it larger once the count outgrows it. Keys share the hash tag
 * {@code {bloom:<space>}} (one Cluster slot, since the scripts use several): {@code
 * <prefix>{bloom:<space>}:<m>x<k>} is the filter, named by its shape, and {@code ...:shape} holds
 * that name (the shape pointer); {@code ...:<m>x<k>:n} counts the ids it took, and {@code
 * ...:shapes} is the set of the shapes of the filters built. During a rebuild, {@code
 * ...:next-shape} names the shape being built, {@code ...:<m>x<k>:next} takes the adds made
 * meanwhile and {@code ...:<m>x<k>:built} holds the bits read from the database until the rebuild
 * swaps them in. The swap deletes every filter of another shape, the one the pointer names and
 * every one in the set, so that a filter whose pointer was dropped (a failed add, an operator) is
 * still deleted by the next rebuild: Redis evicts nothing, and no bit string is left behind. The
 * keys of a rebuild that never swaps expire.
 *
 * <p>Readers do not know a space's shape: the client sends two 32-bit hashes per id and the scripts
 * read the shape pointer and compute the positions (position {@code j} is {@code (h1 + j * h2) mod
 * m}), so a check is still one round trip, and a space without a pointer or filter (never built, or
 * lost with Redis's data) answers "may exist" for every id until {@link #rebuild} ran. An add that
 * is lost would let the filter deny an existing id: callers add before the id's row commits, {@link
 * #add} failing drops the filter's pointer, and each filter keeps a count of the ids it took
 * ({@link #held}) for its rebuild job to compare with the origin's.
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

  /** The most bits a Redis bit string holds. */
  public static final long MAX_BITS = 1L << 32;

  /**
   * A filter's size.
   *
   * @param bits m, the bits of the filter
   * @param hashes k, the bits each id sets
   */
  public record Shape(long bits, int hashes) {

    public Shape {
      if (bits < 1 || bits > MAX_BITS || hashes < 1) {
        throw new IllegalArgumentException(
            "a Bloom filter needs 1 to 2^32 bits and at least one hash, got "
                + bits
                + "x"
                + hashes);
      }
    }

    /** The textbook optimum for {@code expected} ids at false-positive rate {@code rate}. */
    public static Shape of(long expected, double rate) {
      if (expected < 1 || rate <= 0 || rate >= 1) {
        throw new IllegalArgumentException(
            "a Bloom filter needs expected ids >= 1 and a rate in (0, 1)");
      }
      long bits = bitsFor(expected, rate);
      int hashes = (int) Math.max(1, Math.round((double) bits / expected * Math.log(2)));
      return new Shape(Math.max(bits, 64), hashes);
    }

    /** The textbook optimum of bits for {@code expected} ids at {@code rate}. */
    public static long bitsFor(long expected, double rate) {
      return (long) Math.ceil(-expected * Math.log(rate) / (Math.log(2) * Math.log(2)));
    }

    /** The shape's name, {@code <m>x<k>}: the last part of its filter's key. */
    public String name() {
      return bits + "x" + hashes;
    }

    /** The bytes of its bit string. */
    public long bytes() {
      return (bits + 7) / 8;
    }

    /** The shape a name stands for, or null if it is none. */
    static @Nullable Shape parse(@Nullable String name) {
      if (name == null) {
        return null;
      }
      int x = name.indexOf('x');
      try {
        return new Shape(
            Long.parseLong(name.substring(0, x)), Integer.parseInt(name.substring(x + 1)));
      } catch (RuntimeException e) {
        return null;
      }
    }
  }

  /**
   * A space's built filter.
   *
   * @param shape its size
   * @param count the ids it took (the ids read by its last rebuild plus every add since; it may
   *     count an id twice, never none)
   */
  public record Held(Shape shape, long count) {}

  private final StringRedisTemplate redis;
  private final RedisRound round;
  private final String prefix;

  public RedisBloomFilter(StringRedisTemplate redis, String keyPrefix) {
    this.redis = redis;
    this.round = new RedisRound(redis);
    this.prefix = keyPrefix;
  }

  /** The start of every key of a space: {@code <prefix>{bloom:<space>}:}. */
  private String base(String space) {
    return prefix + "{bloom:" + space + "}:";
  }

  /** The space's shape pointer: the name of its filter's shape. */
  public String shapeKey(String space) {
    return base(space) + "shape";
  }

  private String nextShapeKey(String space) {
    return base(space) + "next-shape";
  }

  /** The key of the space's filter of this shape. */
  public String key(String space, Shape shape) {
    return base(space) + shape.name();
  }

  /** The space's built filter: its shape and count of ids; null when none is built. */
  public @Nullable Held held(String space) {
    Shape shape = Shape.parse(redis.opsForValue().get(shapeKey(space)));
    if (shape == null) {
      return null;
    }
    String key = key(space, shape);
    String n = redis.opsForValue().get(key + ":n");
    if (n == null || !Boolean.TRUE.equals(redis.hasKey(key))) {
      return null;
    }
    return new Held(shape, Long.parseLong(n));
  }

  /** Whether the space's filter is built (answers anything but "may exist"). */
  public boolean built(String space) {
    return held(space) != null;
  }

  /**
   * How many ids the space's filter took (see {@link Held#count}): fewer than the origin holds
   * means an add was lost (the process died between a create and its add, or Redis lost a write),
   * and the filter must be rebuilt. -1 when not built.
   */
  public long count(String space) {
    Held held = held(space);
    return held == null ? -1 : held.count();
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
      byte[][] args = new byte[1 + ids.size() * 2][];
      int next = 0;
      args[next++] = RedisRound.bytes(base(space));
      for (long id : ids) {
        args[next++] = RedisRound.bytes(Long.toString(h1(id)));
        args[next++] = RedisRound.bytes(Long.toString(h2(id)));
      }
      Supplier<List<?>> answer =
          RedisRound.script(
              commands,
              CHECK,
              ScriptOutputType.MULTI,
              new byte[][] {RedisRound.bytes(shapeKey(space))},
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
   * Adds an id to the space's filter, and to a rebuild in progress. If Redis fails, the filter's
   * pointers are dropped so that it cannot deny the id (it answers "may exist" until rebuilt); if
   * dropping fails too, the exception says so.
   *
   * @throws org.springframework.dao.DataAccessException if neither the add nor the drop went
   *     through
   */
  public void add(String space, long id) {
    List<String> pointers = List.of(shapeKey(space), nextShapeKey(space));
    try {
      redis.execute(ADD, pointers, base(space), Long.toString(h1(id)), Long.toString(h2(id)));
    } catch (RuntimeException e) {
      drop(space);
      throw e;
    }
  }

  /**
   * Drops the space's pointers, to its filter and to a rebuild in progress: the space answers "may
   * exist" until rebuilt. The filter stays in the set of the shapes built, so that the rebuild
   * deletes it whatever its new shape; the rebuild in progress fails and its keys expire.
   */
  void drop(String space) {
    redis.delete(List.of(shapeKey(space), nextShapeKey(space)));
  }

  /**
   * Rebuilds the space's filter at {@code shape} from every id the origin holds, while adds go on:
   * they go to both the live filter and the one being rebuilt, and the bits read here are OR-ed
   * into the latter when it is swapped in (replacing a filter of another shape).
   *
   * @param ids supplies every id of the space to the given consumer
   * @param timeout how long the rebuild may take before its keys expire and it fails
   * @return whether the new filter was swapped in
   */
  public boolean rebuild(String space, Shape shape, Consumer<LongConsumer> ids, Duration timeout) {
    String key = key(space, shape);
    String next = key + ":next";
    String built = key + ":built";
    redis.execute(
        BEGIN,
        List.of(nextShapeKey(space), next, next + ":n"),
        shape.name(),
        Long.toString(shape.bits() - 1),
        Long.toString(timeout.toMillis()));
    byte[] bits = new byte[(int) shape.bytes()];
    long[] read = {0};
    ids.accept(
        id -> {
          read[0]++;
          for (long position : positions(id, shape)) {
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
            SWAP,
            List.of(
                shapeKey(space),
                nextShapeKey(space),
                key,
                next,
                built,
                key + ":n",
                next + ":n",
                base(space) + "shapes"),
            Long.toString(read[0]),
            shape.name(),
            base(space));
    return swapped != null && swapped == 1;
  }

  /**
   * The id's k bit positions in a filter of this shape: {@code (h1 + j * h2) mod m} for j below k,
   * as the scripts compute them.
   */
  static long[] positions(long id, Shape shape) {
    long h1 = h1(id);
    long h2 = h2(id);
    long[] positions = new long[shape.hashes()];
    for (int j = 0; j < positions.length; j++) {
      positions[j] = (h1 + j * h2) % shape.bits();
    }
    return positions;
  }

  /** The first hash of an id: 32 bits of a SplitMix64 mix of it. */
  static long h1(long id) {
    return mix(id) >>> 32;
  }

  /** The second hash: 32 bits of another mix, odd (so that it never repeats one position). */
  static long h2(long id) {
    return (mix(id + GOLDEN) >>> 32) | 1;
  }

  /** SplitMix64's finaliser: a fast 64-bit mix with good avalanche. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
