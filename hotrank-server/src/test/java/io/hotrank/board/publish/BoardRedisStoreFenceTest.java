package io.hotrank.board.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.publish.BoardRedisStore.Outcome;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.support.SharedRedis;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The fence at the Redis write: the swap script refuses a fencing token lower than the highest that
 * has published the board, before it looks at versions, and leaves the live board as it was.
 */
@Tag("cluster")
class BoardRedisStoreFenceTest {

  private static SharedRedis shared;
  private static StringRedisTemplate redis;
  private static String PREFIX;
  private static BoardRedisStore store;

  @BeforeAll
  static void connect() {
    shared = new SharedRedis();
    redis = shared.template();
    PREFIX = shared.prefix();
    store =
        new BoardRedisStore(
            redis,
            new HotrankRedisProperties(
                PREFIX, Duration.ofMillis(50), Duration.ofSeconds(5), 10, 3, 50, 2),
            io.hotrank.support.TestBoardProperties.defaults());
  }

  @AfterAll
  static void disconnect() {
    shared.close();
  }

  private static BoardSnapshot snapshot(String board, long version) {
    return BoardSnapshot.of(
        board,
        version,
        Instant.ofEpochMilli(1_780_000_000_000L + version),
        List.<BoardEntry>of(),
        10);
  }

  @Test
  void aLowerFence_isRefused_whateverItsVersion_andTheLiveBoardStays() {
    String board = "fence-" + UUID.randomUUID();
    assertThat(store.publish(snapshot(board, 1), 10)).isEqualTo(Outcome.LIVE);
    assertThat(store.publish(snapshot(board, 2), 10))
        .as("same fence, next cycle")
        .isEqualTo(Outcome.LIVE);
    assertThat(store.publish(snapshot(board, 3), 12)).isEqualTo(Outcome.LIVE);

    assertThat(store.publish(snapshot(board, 9), 11)).isEqualTo(Outcome.STALE_FENCE);
    assertThat(store.liveVersion(board)).isEqualTo(3);
    assertThat(redis.keys(PREFIX + "{b:" + board + "}:stage:*")).as("stage dropped").isEmpty();

    assertThat(store.publish(snapshot(board, 3), 13)).isEqualTo(Outcome.NEWER_LIVE);
    assertThat(store.publish(snapshot(board, 4), 13)).isEqualTo(Outcome.LIVE);
    assertThat(redis.opsForValue().get(PREFIX + "{b:" + board + "}:fence")).isEqualTo("13");
  }

  /** Tokens above 2^47 (Redis-seeded ones are microseconds) compare exactly in the script. */
  @Test
  void largeFences_compareExactly() {
    String board = "fence-" + UUID.randomUUID();
    long fence = 1_796_022_151_933_812L;
    assertThat(store.publish(snapshot(board, 1), fence)).isEqualTo(Outcome.LIVE);
    assertThat(store.publish(snapshot(board, 2), fence - 1)).isEqualTo(Outcome.STALE_FENCE);
    assertThat(store.publish(snapshot(board, 2), fence + 1)).isEqualTo(Outcome.LIVE);
    assertThat(redis.opsForValue().get(PREFIX + "{b:" + board + "}:fence"))
        .isEqualTo(Long.toString(fence + 1));
  }

  /** A re-publish goes live only while nothing above its base is live; the fence still rules. */
  @Test
  void aBase_makesThePublishACompareAndSwap_onTheLiveVersion() {
    String board = "fence-" + UUID.randomUUID();
    assertThat(store.publish(snapshot(board, 1), 10)).isEqualTo(Outcome.LIVE);
    assertThat(store.publish(snapshot(board, 2), 10)).isEqualTo(Outcome.LIVE);

    assertThat(store.publish(snapshot(board, 5), 10, 1))
        .as("v2 above base")
        .isEqualTo(Outcome.NEWER_LIVE);
    assertThat(store.liveVersion(board)).isEqualTo(2);
    assertThat(store.publish(snapshot(board, 5), 9, 2)).isEqualTo(Outcome.STALE_FENCE);
    assertThat(store.publish(snapshot(board, 5), 10, 2)).isEqualTo(Outcome.LIVE);
    assertThat(store.publish(snapshot(board, 6), 10, 7))
        .as("base ahead of live")
        .isEqualTo(Outcome.LIVE);
    assertThat(store.liveVersion(board)).isEqualTo(6);
  }
}
