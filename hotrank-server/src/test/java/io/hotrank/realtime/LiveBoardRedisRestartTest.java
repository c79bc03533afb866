package io.hotrank.realtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.BoardReads;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.TestData;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A live board on the defaults users get (published every second) whose Redis restarts empty in the
 * middle of a stream of likes: every read meanwhile answers the last snapshot, never an empty
 * board, and the board is rebuilt from the counters and converges to the batch computation of the
 * same definition. The class runs its own Redis, which it restarts.
 */
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "live-restart",
      "hotrank.boards[0].name=lr-decay",
      "hotrank.boards[0].biz=lr",
      "hotrank.boards[0].type=live",
      "hotrank.boards[0].algorithm=decay",
      "hotrank.boards[0].half-life=6h",
      "hotrank.boards[0].size=10",
      "hotrank.boards[1].name=lr-batch",
      "hotrank.boards[1].biz=lr",
      "hotrank.boards[1].algorithm=decay",
      "hotrank.boards[1].half-life=6h",
      "hotrank.boards[1].size=10",
      "hotrank.boards[1].refresh=0 0 0 1 1 *"
    })
class LiveBoardRedisRestartTest extends ApiTestSupport {

  static {
    TestData.empty("live-restart");
  }

  private static final RedisProcess REDIS = RedisProcess.startForClass();

  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    registry.add("spring.data.redis.url", REDIS::url);
  }

  @AfterAll
  static void stopRedis() throws Exception {
    REDIS.close();
  }

  @Autowired MeterRegistry meters;

  @Override
  protected String engine() {
    return "H2";
  }

  @Test
  void redisRestartedEmpty_theBoardKeepsServing_rebuilds_andConvergesToTheBatchResult()
      throws Exception {
    for (long id = 1; id <= 40; id++) {
      createItem("lr", id, "item " + id, 7, clock.instant().minusSeconds(300 * id));
    }
    likes(1, 40, 0);
    List<Long> before = awaitEqualToBatch();
    assertThat(before).as("%s / %s", read("lr-decay"), read("lr-batch")).hasSize(10);

    double rebuilds = rebuilds();
    REDIS.stop();
    REDIS.startAgain();
    // Likes go on: the old items' order changes while Redis holds nothing of the board.
    likes(30, 40, 10);
    List<Integer> sizes = new ArrayList<>();
    List<Long> after =
        await()
            .atMost(Duration.ofSeconds(15))
            .pollInterval(Duration.ofMillis(100))
            .until(
                () -> {
                  JsonNode live = read("lr-decay");
                  sizes.add(live.get("items").size());
                  return BoardReads.ids(live);
                },
                ids -> ids.equals(batchIds()));
    assertThat(sizes)
        .as("sizes read while Redis was empty")
        .allSatisfy(n -> assertThat(n).isEqualTo(10));
    assertThat(after).isNotEqualTo(before);
    assertThat(rebuilds()).isGreaterThan(rebuilds);
  }

  private double rebuilds() {
    var counter =
        meters
            .find("hotrank.live.rebuilds")
            .tag("board", "lr-decay")
            .tag("cause", "no-data")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  /** Likes from users 1..n+extra on items from..to: item i gets (i % 7) + extra likes. */
  private void likes(long from, long to, int extra) {
    List<String> events = new ArrayList<>();
    for (long id = from; id <= to; id++) {
      for (long user = 1; user <= id % 7 + extra; user++) {
        events.add(
            "{\"biz\":\"lr\",\"itemId\":" + id + ",\"type\":\"like\",\"userId\":" + user + "}");
      }
    }
    postEvents(events.toArray(String[]::new));
  }

  /**
   * Waits (bounded) until the live board, published by itself, equals the batch result; before its
   * first publish it answers 503, which this wait ignores.
   */
  private List<Long> awaitEqualToBatch() {
    return await()
        .atMost(Duration.ofSeconds(15))
        .ignoreExceptions()
        .pollInterval(Duration.ofMillis(100))
        .until(() -> BoardReads.ids(read("lr-decay")), ids -> ids.equals(batchIds()));
  }

  private List<Long> batchIds() {
    Answer recomputed =
        http.post("/api/v1/admin/boards/lr-batch/recompute", "", http.adminHeader());
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
    return BoardReads.ids(read("lr-batch"));
  }

  private JsonNode read(String board) {
    Answer read = http.get("/api/v1/boards/" + board + "?limit=10");
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    return read.json();
  }
}
