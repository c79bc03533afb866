package io.hotrank.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.redis.RedisBloomFilter.Shape;
import io.hotrank.support.RedisProcess;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongConsumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Bloom filter's keys in a Redis process of this class's own: a rebuild leaves the new filter's
 * keys and nothing else under the space's hash tag, whatever happened to the old filter's pointer
 * (the embedded Redis evicts nothing, so a bit string nobody names would stay forever), and adds
 * made while a rebuild reads the database are in the filter it swaps in.
 */
class RedisBloomFilterTest {

  private static final String PREFIX = "hrtest:";
  private static final Shape SMALL = Shape.of(1024, 0.01);
  private static final Shape LARGE = Shape.of(2048, 0.01);
  private static final Duration TIMEOUT = Duration.ofMinutes(10);

  private static RedisProcess process;
  private static LettuceConnectionFactory connections;
  private static StringRedisTemplate redis;
  private static RedisBloomFilter filter;

  @BeforeAll
  static void start() throws Exception {
    process = RedisProcess.start();
    connections =
        new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", process.port()));
    connections.afterPropertiesSet();
    connections.start();
    redis = new StringRedisTemplate(connections);
    filter = new RedisBloomFilter(redis, PREFIX);
  }

  @AfterAll
  static void stop() throws Exception {
    connections.destroy();
    process.stop();
  }

  /** A space of its own per test. */
  private static String space() {
    return "biz-" + UUID.randomUUID();
  }

  /** Every key under the space's hash tag, by SCAN (what a script could not do in Cluster). */
  private static Set<String> keys(String space) {
    Set<String> keys = new HashSet<>();
    try (Cursor<String> cursor =
        redis.scan(ScanOptions.scanOptions().match(PREFIX + "{bloom:" + space + "}*").build())) {
      cursor.forEachRemaining(keys::add);
    }
    return keys;
  }

  /**
   * The keys a built filter of this shape leaves: its pointer, the set of shapes, its bits and
   * count.
   */
  private static Set<String> builtKeys(String space, Shape shape) {
    String key = filter.key(space, shape);
    return Set.of(filter.shapeKey(space), PREFIX + "{bloom:" + space + "}:shapes", key, key + ":n");
  }

  private static java.util.function.Consumer<LongConsumer> ids(long from, long to) {
    return into -> LongStream.rangeClosed(from, to).forEach(into::accept);
  }

  @Test
  void aRebuildAtAnotherSize_afterTheFiltersPointerWasDropped_leavesOnlyTheNewFilter() {
    String space = space();
    assertThat(filter.rebuild(space, SMALL, ids(1, 100), TIMEOUT)).isTrue();
    filter.add(space, 101);
    filter.drop(space); // what an add that Redis failed does
    assertThat(filter.built(space)).isFalse();
    assertThat(filter.certainlyAbsent(space, List.of(500L, 501L))).as("may exist").isEmpty();

    assertThat(filter.rebuild(space, LARGE, ids(1, 101), TIMEOUT)).isTrue();

    assertThat(keys(space)).containsExactlyInAnyOrderElementsOf(builtKeys(space, LARGE));
    assertThat(filter.held(space)).isEqualTo(new RedisBloomFilter.Held(LARGE, 101));
    assertThat(filter.certainlyAbsent(space, LongStream.rangeClosed(1, 101).boxed().toList()))
        .isEmpty();
  }

  @Test
  void aRebuildAtAnotherSize_afterAnOperatorDeletedThePointer_leavesOnlyTheNewFilter() {
    String space = space();
    assertThat(filter.rebuild(space, LARGE, ids(1, 100), TIMEOUT)).isTrue();
    redis.delete(filter.shapeKey(space)); // the procedure after loading items behind its back

    assertThat(filter.rebuild(space, SMALL, ids(1, 200), TIMEOUT)).isTrue();

    assertThat(keys(space)).containsExactlyInAnyOrderElementsOf(builtKeys(space, SMALL));
  }

  @Test
  void rebuildsAtTheSameSize_withOrWithoutThePointer_leaveOnlyTheFilter() {
    String space = space();
    assertThat(filter.rebuild(space, SMALL, ids(1, 100), TIMEOUT)).isTrue();
    assertThat(filter.rebuild(space, SMALL, ids(1, 100), TIMEOUT)).isTrue();
    assertThat(keys(space)).containsExactlyInAnyOrderElementsOf(builtKeys(space, SMALL));
    filter.drop(space);
    assertThat(filter.rebuild(space, SMALL, ids(1, 100), TIMEOUT)).isTrue();
    assertThat(keys(space)).containsExactlyInAnyOrderElementsOf(builtKeys(space, SMALL));
    assertThat(filter.held(space)).isEqualTo(new RedisBloomFilter.Held(SMALL, 100));
  }

  @Test
  void aResizeAfterAnother_leavesOnlyTheLastFilter() {
    String space = space();
    assertThat(filter.rebuild(space, SMALL, ids(1, 100), TIMEOUT)).isTrue();
    filter.drop(space);
    assertThat(filter.rebuild(space, LARGE, ids(1, 100), TIMEOUT)).isTrue();
    filter.drop(space);
    Shape larger = Shape.of(4096, 0.01);
    assertThat(filter.rebuild(space, larger, ids(1, 100), TIMEOUT)).isTrue();
    assertThat(keys(space)).containsExactlyInAnyOrderElementsOf(builtKeys(space, larger));
  }

  /**
   * Ids created while a resize reads the database (after it began, before it swaps) go into both
   * filters: the old one answers for them meanwhile, and the new one has them once swapped in.
   */
  @Test
  void idsAddedDuringAResize_areInTheFilterSwappedIn() {
    String space = space();
    assertThat(filter.rebuild(space, SMALL, ids(1, 100), TIMEOUT)).isTrue();
    List<Long> created = LongStream.rangeClosed(1_001, 1_050).boxed().toList();
    boolean swapped =
        filter.rebuild(
            space,
            LARGE,
            into -> {
              LongStream.rangeClosed(1, 50).forEach(into::accept);
              created.forEach(id -> filter.add(space, id)); // created while the database is read
              assertThat(filter.certainlyAbsent(space, created)).as("the old filter").isEmpty();
              LongStream.rangeClosed(51, 100).forEach(into::accept);
            },
            TIMEOUT);
    assertThat(swapped).isTrue();
    assertThat(filter.held(space)).isEqualTo(new RedisBloomFilter.Held(LARGE, 150));
    assertThat(filter.certainlyAbsent(space, created)).isEmpty();
    assertThat(filter.certainlyAbsent(space, LongStream.rangeClosed(1, 100).boxed().toList()))
        .isEmpty();
    assertThat(filter.certainlyAbsent(space, LongStream.rangeClosed(5_000, 5_999).boxed().toList()))
        .as("absent ids are still denied")
        .hasSizeGreaterThan(900);
    assertThat(keys(space)).containsExactlyInAnyOrderElementsOf(builtKeys(space, LARGE));
  }
}
