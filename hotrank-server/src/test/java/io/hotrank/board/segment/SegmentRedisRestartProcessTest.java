package io.hotrank.board.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Redis restarted empty under a segmented board: the segments an instance holds keep being served
 * from memory with the same bytes, are written back to the new Redis by the version check (from the
 * database, under the fencing token they were stored with), a segment no instance holds is served
 * from the database, and the board's next computation, under its lease, publishes every segment to
 * the new Redis, which reaches another instance by its notice. A live family and a window family,
 * with the defaults users get, serve their last segment boards while Redis is down and empty,
 * rebuild themselves (from the database, from the event log) and move with the next likes.
 */
@Tag("process")
@Isolated // its assertions bound a failover, a lease or a cycle in seconds: run alone
class SegmentRedisRestartProcessTest {

  private static final String RED = "/api/v1/boards/seg-hot/segments/red";
  private static final String BLUE = "/api/v1/boards/seg-hot/segments/blue";

  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  private static ServiceProcess start(String name) throws Exception {
    List<String> args = new ArrayList<>(processes.engineArgs());
    args.addAll(
        List.of(
            "--hotrank.board.scheduling=false",
            "--hotrank.boards[0].name=seg-hot",
            "--hotrank.boards[0].biz=article",
            "--hotrank.boards[0].refresh=0 0 0 1 1 *",
            "--hotrank.boards[0].segment-by=tag"));
    return processes.start(ServiceProcesses.instance(name).withArgs(args));
  }

  private static void item(HttpJson http, long id, String tag, int likes) {
    Answer created =
        http.post(
            "/api/v1/items",
            "{\"biz\":\"article\",\"id\":"
                + id
                + ",\"authorId\":1,\"title\":\"item "
                + id
                + "\",\"tags\":[\""
                + tag
                + "\"]}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    likes(http, id, likes);
  }

  private static void likes(HttpJson http, long id, int likes) {
    List<String> events = new ArrayList<>();
    for (int k = 0; k < likes; k++) {
      events.add("{\"biz\":\"article\",\"itemId\":" + id + ",\"type\":\"like\"}");
    }
    assertThat(
            http.post("/api/v1/events", "{\"events\":[" + String.join(",", events) + "]}").status())
        .isEqualTo(202);
  }

  private static void recompute(HttpJson http) {
    Answer recomputed = http.admin("/api/v1/admin/boards/seg-hot/recompute");
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
  }

  private static long version(Answer read) {
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    return read.json().get("version").asLong();
  }

  @Test
  void redisRestartedEmpty_heldSegmentsServeOn_andTheNextComputationRepublishesEverySegment()
      throws Exception {
    RedisProcess redis = processes.redis();
    ServiceProcess a = start("a");
    HttpJson http = a.http();
    item(http, 1, "red", 3);
    item(http, 2, "red", 1);
    item(http, 3, "blue", 2);
    recompute(http);
    Answer before = http.get(RED);
    long red = version(before);
    assertThat(before.header("X-Hotrank-Source")).isIn("redis", "db");
    assertThat(http.get(RED).header("X-Hotrank-Source")).isEqualTo("local");

    redis.stop();
    Answer down = http.get(RED);
    assertThat(down.status()).isEqualTo(200);
    assertThat(down.header("X-Hotrank-Source")).isEqualTo("local");
    assertThat(down.body()).isEqualTo(before.body());

    redis.startAgain();
    assertThat(redis.command("EXISTS hr:{b:seg-hot/red}:live")).contains(":0");
    // The held segment goes on being served from memory, and the version check writes it back.
    await("the held segment written back to the new Redis")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              Answer read = http.get(RED);
              assertThat(read.body()).isEqualTo(before.body());
              assertThat(redis.command("GET hr:{b:seg-hot/red}:ver"))
                  .contains("\r\n" + red + "\r\n");
            });

    // A fresh instance: the segment no one held is served from the database.
    ServiceProcess b = start("b");
    Answer blue = b.http().get(BLUE);
    assertThat(blue.status()).as(blue.body()).isEqualTo(200);
    assertThat(blue.header("X-Hotrank-Source")).isEqualTo("db");
    assertThat(blue.json().get("items").get(0).get("itemId").asLong()).isEqualTo(3L);
    assertThat(version(b.http().get(RED))).isEqualTo(red);

    // The next computation publishes every segment to the new Redis; b follows by its notice.
    likes(http, 2, 5);
    assertThat(http.admin("/api/v1/admin/events/fold").status()).isEqualTo(200);
    recompute(http);
    long after = version(http.get(RED));
    assertThat(after).isGreaterThan(red);
    assertThat(redis.command("GET hr:{b:seg-hot/blue}:ver")).doesNotContain("$-1");
    await("b serves the new red segment")
        .atMost(Duration.ofSeconds(2))
        .untilAsserted(
            () -> {
              Answer read = b.http().get(RED);
              assertThat(version(read)).isEqualTo(after);
              assertThat(read.json().get("items").get(0).get("itemId").asLong()).isEqualTo(2L);
            });
  }

  private static long first(Answer read) {
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    assertThat(read.json().get("items")).as(read.body()).isNotEmpty();
    return read.json().get("items").get(0).get("itemId").asLong();
  }

  /**
   * A live family rebuilds from the database's counters, a window family replays its window from
   * the event log.
   */
  @ParameterizedTest
  @ValueSource(strings = {"live", "window"})
  void redisRestartedEmpty_aRealtimeFamilyServesItsLastBoards_rebuildsUnderItsLease_andMovesOn(
      String type) throws Exception {
    RedisProcess redis = processes.redis();
    String board = type.charAt(0) + "seg-hot";
    String red = "/api/v1/boards/" + board + "/segments/red";
    List<String> args = new ArrayList<>(processes.engineArgs());
    args.addAll(
        List.of(
            "--hotrank.boards[0].name=" + board,
            "--hotrank.boards[0].biz=video",
            "--hotrank.boards[0].type=" + type,
            "--hotrank.boards[0].window=" + (type.equals("live") ? "2d" : "12h"),
            "--hotrank.boards[0].size=10",
            "--hotrank.boards[0].segment-by=tag"));
    if (type.equals("live")) {
      args.add("--hotrank.boards[0].algorithm=decay");
    }
    ServiceProcess a = processes.start(ServiceProcesses.instance(type + "-a").withArgs(args));
    HttpJson http = a.http();
    for (long id = 11; id <= 13; id++) {
      Answer created =
          http.post(
              "/api/v1/items",
              "{\"biz\":\"video\",\"id\":"
                  + id
                  + ",\"authorId\":1,\"title\":\"v"
                  + id
                  + "\",\"tags\":[\""
                  + (id == 13 ? "blue" : "red")
                  + "\"]}");
      assertThat(created.status()).as(created.body()).isEqualTo(201);
    }
    likeVideo(http, 11, 3);
    likeVideo(http, 12, 1);
    likeVideo(http, 13, 1);
    // Both likes' folds published: 11 (3 likes) before 12 (1 like).
    await("the red segment published by itself")
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              Answer read = http.get(red);
              assertThat(first(read)).isEqualTo(11L);
              assertThat(read.json().get("items")).hasSize(2);
              assertThat(read.json().get("items").get(1).get("counts").get("like").asInt())
                  .isEqualTo(1);
            });
    Answer before = http.get(red);

    redis.stop();
    Answer down = http.get(red);
    assertThat(down.status()).isEqualTo(200);
    // The same board: a look may have republished it between the two reads (a decaying score
    // moves), so its items and counters are compared, and its version never goes back.
    assertThat(down.json().get("version").asLong())
        .isGreaterThanOrEqualTo(before.json().get("version").asLong());
    assertThat(itemsAndCounts(down)).isEqualTo(itemsAndCounts(before));

    redis.startAgain();
    // Served all along; the family is rebuilt from the database, and the next likes move it.
    assertThat(http.get(red).status()).isEqualTo(200);
    await("the family rebuilt in the new Redis")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        redis.command(
                            type.equals("live")
                                ? "KEYS hr:{lf:lseg-hot}:*:applied"
                                : "KEYS hr:{wf:wseg-hot}:*:applied"))
                    .contains(":applied"));
    likeVideo(http, 12, 5);
    await("item 12 first on red after its likes")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              Answer read = http.get(red);
              assertThat(first(read)).isEqualTo(12L);
              assertThat(read.json().get("items")).hasSize(2);
            });
    Answer blue = http.get("/api/v1/boards/" + board + "/segments/blue");
    assertThat(blue.status()).isEqualTo(200);
    assertThat(first(blue)).isEqualTo(13L);
  }

  private static List<String> itemsAndCounts(Answer read) {
    List<String> shown = new ArrayList<>();
    read.json()
        .get("items")
        .forEach(e -> shown.add(e.get("itemId").asLong() + ":" + e.get("counts").toString()));
    return shown;
  }

  private static void likeVideo(HttpJson http, long id, int likes) {
    List<String> events = new ArrayList<>();
    for (int k = 0; k < likes; k++) {
      events.add("{\"biz\":\"video\",\"itemId\":" + id + ",\"type\":\"like\"}");
    }
    assertThat(
            http.post("/api/v1/events", "{\"events\":[" + String.join(",", events) + "]}").status())
        .isEqualTo(202);
  }
}
