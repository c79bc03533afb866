package io.hotrank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The behaviour of the v1 API that depends on the database engine, against one engine and a real
 * Redis, through HTTP: ranking over real scans, generated ids, counters and per-user state, and the
 * fallback to the database snapshot. One subclass per engine; every test here runs on each engine
 * the environment provides. Engine-independent behaviour is in {@link HttpApiTest}.
 */
abstract class HotrankApiContract extends ApiTestSupport {
  // ---------------------------------------------------------------- end to end: ranking

  /** An item of the ranking scenario, with the counts the test posts for it. */
  record Seeded(
      long id,
      Instant createdAt,
      int likes,
      int comments,
      int shares,
      int views,
      int collects,
      int dislikes,
      boolean deleted) {}

  @Test
  void hackerNewsBoard_equalsIndependentlyComputedOrder_withoutDeletedOrOutOfWindowItems() {
    List<Seeded> items = seedScenario(11);
    // score = (P - 1) / (T + 2)^1.8, P = like + 2*comment + 3*share, T in hours; window 3 days
    assertBoardMatches(
        "news-hn",
        items,
        Duration.ofDays(3),
        s -> {
          double p = s.likes() + 2.0 * s.comments() + 3.0 * s.shares();
          double hours = Duration.between(s.createdAt(), NOW).toMillis() / 3_600_000.0;
          return (p - 1) / Math.pow(hours + 2, 1.8);
        });
  }

  @Test
  void redditBoard_equalsIndependentlyComputedOrder() {
    List<Seeded> items = seedScenario(23);
    // up = like + 2*collect, down = dislike; score = round7(sign*log10(max(|x|,1)) + s/45000)
    assertBoardMatches(
        "news-reddit",
        items,
        Duration.ofDays(30),
        s -> {
          double x = s.likes() + 2.0 * s.collects() - s.dislikes();
          double order = Math.log10(Math.max(Math.abs(x), 1));
          double sign = Math.signum(x);
          double seconds = s.createdAt().getEpochSecond() - 1134028003L;
          return Math.round((sign * order + seconds / 45000) * 1e7) / 1e7;
        });
  }

  @Test
  void decayBoard_equalsIndependentlyComputedOrder() {
    List<Seeded> items = seedScenario(37);
    // score = (like + 0.1*view) * 2^(-T / 6h); window 2 days
    assertBoardMatches(
        "news-decay",
        items,
        Duration.ofDays(2),
        s -> {
          double p = s.likes() + 0.1 * s.views();
          double halfLives = Duration.between(s.createdAt(), NOW).toMillis() / (6 * 3_600_000.0);
          return p * Math.pow(2, -halfLives);
        });
  }

  /**
   * Creates 30 items over the last 100 hours, a few of them exact twins (same createdAt and counts,
   * so only the id breaks the tie), posts their interactions in batches, and deletes three of them.
   */
  private List<Seeded> seedScenario(long seed) {
    Random random = new Random(seed);
    List<Seeded> items = new ArrayList<>();
    for (int i = 1; i <= 30; i++) {
      boolean twin = i % 10 == 0;
      Seeded previous = twin ? items.getLast() : null;
      Instant createdAt =
          twin ? previous.createdAt() : NOW.minusSeconds(random.nextInt(100 * 3600));
      Seeded s =
          twin
              ? new Seeded(
                  100 + i,
                  createdAt,
                  previous.likes(),
                  previous.comments(),
                  previous.shares(),
                  previous.views(),
                  previous.collects(),
                  previous.dislikes(),
                  false)
              : new Seeded(
                  100 + i,
                  createdAt,
                  random.nextInt(40),
                  random.nextInt(6),
                  random.nextInt(4),
                  random.nextInt(300),
                  random.nextInt(5),
                  random.nextInt(8),
                  i % 7 == 3);
      items.add(s);
      createItem("news", s.id(), "title " + s.id(), 1000 + i, createdAt);
    }
    List<Map<String, Object>> events = new ArrayList<>();
    for (Seeded s : items) {
      addEvents(events, s, "like", s.likes());
      addEvents(events, s, "comment", s.comments());
      addEvents(events, s, "share", s.shares());
      addEvents(events, s, "view", s.views());
      addEvents(events, s, "collect", s.collects());
      addEvents(events, s, "dislike", s.dislikes());
    }
    java.util.Collections.shuffle(events, random);
    for (int from = 0; from < events.size(); from += 1000) {
      List<Map<String, Object>> batch = events.subList(from, Math.min(events.size(), from + 1000));
      Answer posted = http.post("/api/v1/events", HttpJson.json(Map.of("events", batch)));
      assertThat(posted.status()).as(posted.body()).isEqualTo(202);
      assertThat(posted.json().get("accepted").asInt()).isEqualTo(batch.size());
    }
    fold();
    items.stream()
        .filter(Seeded::deleted)
        .forEach(
            s -> assertThat(http.delete("/api/v1/items/news/" + s.id()).status()).isEqualTo(204));
    return items;
  }

  private static void addEvents(List<Map<String, Object>> events, Seeded s, String type, int n) {
    for (int k = 0; k < n; k++) {
      events.add(Map.of("biz", "news", "itemId", s.id(), "type", type));
    }
  }

  private void assertBoardMatches(
      String board, List<Seeded> items, Duration window, ToDoubleFunction<Seeded> score) {
    record Expected(Seeded item, double score) {}
    List<Expected> expected =
        items.stream()
            .filter(s -> !s.deleted() && !s.createdAt().isBefore(NOW.minus(window)))
            .map(s -> new Expected(s, score.applyAsDouble(s)))
            .sorted(
                Comparator.comparingDouble(Expected::score)
                    .reversed()
                    .thenComparing(e -> e.item().createdAt(), Comparator.reverseOrder())
                    .thenComparing(e -> e.item().id(), Comparator.reverseOrder()))
            .limit(8)
            .toList();
    assertThat(items.stream().filter(Seeded::deleted)).isNotEmpty();
    if (window.compareTo(Duration.ofHours(100)) < 0) {
      assertThat(items.stream().filter(s -> s.createdAt().isBefore(NOW.minus(window))))
          .isNotEmpty();
    }

    Answer recomputed = http.admin("/api/v1/admin/boards/" + board + "/recompute");
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
    assertThat(recomputed.json().get("size").asInt()).isEqualTo(expected.size());

    Answer read = http.get("/api/v1/boards/" + board + "?limit=8");
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.header("X-Hotrank-Source")).isEqualTo("local");
    JsonNode entries = read.json().get("items");
    assertThat(read.json().get("version").asLong())
        .isEqualTo(recomputed.json().get("version").asLong());
    List<Long> ids = new ArrayList<>();
    entries.forEach(e -> ids.add(e.get("itemId").asLong()));
    assertThat(ids).containsExactlyElementsOf(expected.stream().map(e -> e.item().id()).toList());
    for (int i = 0; i < expected.size(); i++) {
      JsonNode e = entries.get(i);
      Seeded s = expected.get(i).item();
      assertThat(e.get("rank").asInt()).isEqualTo(i + 1);
      assertThat(e.get("score").asDouble())
          .isCloseTo(expected.get(i).score(), org.assertj.core.data.Offset.offset(1e-9));
      assertThat(e.get("title").asString()).isEqualTo("title " + s.id());
      assertThat(Instant.parse(e.get("createdAt").asString())).isEqualTo(s.createdAt());
      assertThat(e.get("counts").get("like").asLong()).isEqualTo(s.likes());
      assertThat(e.get("counts").get("view").asLong()).isEqualTo(s.views());
      assertThat(e.get("counts").get("dislike").asLong()).isEqualTo(s.dislikes());
    }
  }

  // ---------------------------------------------------------------- items

  @Test
  void itemReads_singleAndBatch_sayWhichTierAnswered_andListMissingIdsApart() {
    createItem("paper", 1L, "one", 1, null);
    createItem("paper", 2L, "two", 1, null);
    createItem("paper", 3L, "three", 1, null);
    assertThat(http.delete("/api/v1/items/paper/3").status()).isEqualTo(204);

    Answer first = http.get("/api/v1/items/paper/1");
    assertThat(first.status()).as(first.body()).isEqualTo(200);
    assertThat(first.header("X-Hotrank-Source")).isEqualTo("db"); // a create leaves a floor
    Answer again = http.get("/api/v1/items/paper/1");
    assertThat(again.header("X-Hotrank-Source")).isEqualTo("local");
    assertThat(again.json().get("title").asString()).isEqualTo("one");

    Answer batch = http.get("/api/v1/items/paper?ids=2,9,1,3,2");
    assertThat(batch.status()).as(batch.body()).isEqualTo(200);
    List<Long> found = new ArrayList<>();
    batch.json().get("items").forEach(item -> found.add(item.get("id").asLong()));
    List<Long> missing = new ArrayList<>();
    batch.json().get("missing").forEach(id -> missing.add(id.asLong()));
    assertThat(found).containsExactly(2L, 1L);
    assertThat(missing).containsExactly(9L, 3L);
    assertThat(batch.header("X-Hotrank-Source")).isIn("redis", "db");
    assertThat(http.get("/api/v1/items/paper?ids=1,2").header("X-Hotrank-Source"))
        .isEqualTo("local");

    // An edit is seen by the next read here at once (the write replaced the cached version).
    Answer edited = http.put("/api/v1/items/paper/1", "{\"authorId\":4,\"title\":\"one, edited\"}");
    assertThat(edited.status()).as(edited.body()).isEqualTo(200);
    assertThat(http.get("/api/v1/items/paper/1").json().get("title").asString())
        .isEqualTo("one, edited");
    assertThat(http.get("/api/v1/items/paper/3").status()).isEqualTo(404);
  }

  @Test
  void itemsWithoutId_getIncreasingIds_aboveEveryIdTakenExplicitly() {
    long first = createItem("video", null, "generated a", 1, null).json().get("id").asLong();
    createItem("video", 7L, "explicit", 1, null);
    long second = createItem("video", null, "generated b", 1, null).json().get("id").asLong();
    assertThat(first).isEqualTo(1);
    assertThat(second).isEqualTo(8);
    assertThat(
            http.post(
                    "/api/v1/items",
                    "{\"biz\":\"video\",\"id\":7,\"authorId\":1,\"title\":\"again\"}")
                .status())
        .isEqualTo(409);
  }

  @Test
  void concurrentCreatesWithoutId_ofANewBiz_allSucceedWithDistinctIds() throws Exception {
    int threads = 6;
    int each = 8;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      List<java.util.concurrent.Future<List<Answer>>> runs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        runs.add(
            pool.submit(
                () -> {
                  List<Answer> answers = new ArrayList<>();
                  for (int i = 0; i < each; i++) {
                    answers.add(
                        http.post(
                            "/api/v1/items",
                            "{\"biz\":\"fresh\",\"authorId\":1,\"title\":\"concurrent\"}"));
                  }
                  return answers;
                }));
      }
      List<Long> ids = new ArrayList<>();
      for (var run : runs) {
        for (Answer answer : run.get(60, java.util.concurrent.TimeUnit.SECONDS)) {
          assertThat(answer.status()).as(answer.body()).isEqualTo(201);
          ids.add(answer.json().get("id").asLong());
        }
      }
      assertThat(ids).doesNotHaveDuplicates().hasSize(threads * each);
      assertThat(ids).allMatch(id -> id >= 1 && id <= threads * each);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void editingAnItem_keepsItsCreatedAt_andRejectsAChangedOne() {
    Instant old = NOW.minus(Duration.ofHours(30));
    createItem("news", 5L, "before", 3, old);
    Answer edited =
        http.put("/api/v1/items/news/5", "{\"authorId\":4,\"title\":\"after\",\"tags\":[\"x\"]}");
    assertThat(edited.status()).as(edited.body()).isEqualTo(200);
    assertThat(edited.json().get("title").asString()).isEqualTo("after");
    assertThat(edited.json().get("authorId").asLong()).isEqualTo(4);
    assertThat(Instant.parse(edited.json().get("createdAt").asString())).isEqualTo(old);

    Answer younger =
        http.put(
            "/api/v1/items/news/5",
            "{\"authorId\":4,\"title\":\"sneaky\",\"createdAt\":\"" + NOW + "\"}");
    assertThat(younger.status()).isEqualTo(400);
    assertThat(younger.body()).contains("createdAt");
    JsonNode stored = http.get("/api/v1/items/news/5").json();
    assertThat(stored.get("title").asString()).isEqualTo("after");
    assertThat(Instant.parse(stored.get("createdAt").asString())).isEqualTo(old);
  }

  @Test
  void deletedItem_isGoneFromReads_andFromTheBoardAfterTheNextPublish() {
    createItem("news", 1L, "stays", 1, NOW.minusSeconds(3600));
    createItem("news", 2L, "goes", 1, NOW.minusSeconds(3600));
    postEvents(
        "{\"biz\":\"news\",\"itemId\":2,\"type\":\"like\"}",
        "{\"biz\":\"news\",\"itemId\":2,\"type\":\"like\"}");
    http.admin("/api/v1/admin/boards/news-hn/recompute");
    assertThat(boardIds("news-hn")).containsExactly(2L, 1L);

    assertThat(http.delete("/api/v1/items/news/2").status()).isEqualTo(204);
    assertThat(http.delete("/api/v1/items/news/2").status()).isEqualTo(204);
    assertThat(http.get("/api/v1/items/news/2").status()).isEqualTo(404);
    http.admin("/api/v1/admin/boards/news-hn/recompute");
    assertThat(boardIds("news-hn")).containsExactly(1L);
  }

  // ---------------------------------------------------------------- events

  private JsonNode counts(String biz, long id) {
    return http.get("/api/v1/items/" + biz + "/" + id).json().get("counts");
  }

  @Test
  void likeAndCollect_withUserId_countOncePerUser_andUndoOnlyWhatWasDone() {
    createItem("news", 1L, "liked", 1, null);
    postEvents(
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"userId\":7}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"userId\":7}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"userId\":8}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"unlike\",\"userId\":9}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"collect\",\"userId\":7}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"collect\",\"userId\":7}");
    assertThat(counts("news", 1).get("like").asLong()).isEqualTo(2);
    assertThat(counts("news", 1).get("collect").asLong()).isEqualTo(1);

    postEvents("{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"userId\":7}");
    assertThat(counts("news", 1).get("like").asLong()).isEqualTo(2);

    postEvents(
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"unlike\",\"userId\":7}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"unlike\",\"userId\":7}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"uncollect\",\"userId\":7}");
    assertThat(counts("news", 1).get("like").asLong()).isEqualTo(1);
    assertThat(counts("news", 1).get("collect").asLong()).isZero();

    postEvents("{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"userId\":7}");
    assertThat(counts("news", 1).get("like").asLong()).isEqualTo(2);
  }

  @Test
  void eventsWithoutUserId_countAsGiven_neverBelowZero_inBatchOrder() {
    createItem("news", 1L, "anonymous", 1, null);
    postEvents(
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"unlike\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"uncollect\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"view\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"view\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"comment\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"share\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"dislike\"}");
    JsonNode c = counts("news", 1);
    assertThat(c.get("like").asLong()).isEqualTo(2);
    assertThat(c.get("collect").asLong()).isZero();
    assertThat(c.get("view").asLong()).isEqualTo(2);
    assertThat(c.get("comment").asLong()).isEqualTo(1);
    assertThat(c.get("share").asLong()).isEqualTo(1);
    assertThat(c.get("dislike").asLong()).isEqualTo(1);
  }

  @Test
  void batchWithOneUnknownItem_isRejectedWhole_namingTheEvent_andAppliesNothing() {
    createItem("news", 1L, "real", 1, null);
    Answer answer =
        http.post(
            "/api/v1/events",
            "{\"events\":["
                + "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"userId\":5},"
                + "{\"biz\":\"news\",\"itemId\":1,\"type\":\"view\"},"
                + "{\"biz\":\"news\",\"itemId\":404,\"type\":\"view\"}]}");
    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
    assertThat(answer.json().get("errors").get(0).get("field").asString())
        .isEqualTo("events[2].itemId");
    assertThat(counts("news", 1).get("like").asLong()).isZero();
    assertThat(counts("news", 1).get("view").asLong()).isZero();
    // the user's like was rolled back too: liking now counts
    postEvents("{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"userId\":5}");
    assertThat(counts("news", 1).get("like").asLong()).isEqualTo(1);
  }

  @Test
  void eventsOnADeletedItem_areRejected() {
    createItem("news", 1L, "deleted", 1, null);
    http.delete("/api/v1/items/news/1");
    Answer answer =
        http.post(
            "/api/v1/events", "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"}]}");
    assertThat(answer.status()).isEqualTo(404);
    assertThat(
            jdbc.queryForObject(
                "SELECT like_cnt FROM hr_item_counter WHERE item_id = 1", Long.class))
        .isZero();
  }

  /**
   * Other instances sharing this one's Redis and database. One started before the board was
   * published, and not listening for notices, misses locally and reads Redis; with the Redis keys
   * gone, one started afterwards preloads the database snapshot before it reports ready.
   */
  @Test
  void otherInstances_fallBackToRedis_thenToTheDatabaseSnapshot() {
    jdbc.update("DELETE FROM hr_board_snapshot WHERE board = ?", "fallback");
    redis.delete(redis.keys(KEY_PREFIX + "{b:fallback}*"));
    createItem("news", 1L, "shared", 1, NOW.minusSeconds(60));
    try (SecondInstance second =
        SecondInstance.start(
            environment, "--hotrank.board.notices=false", "--hotrank.board.check-interval=1h")) {
      assertThat(second.http().get("/api/v1/boards/fallback").status()).isEqualTo(503);
      long version =
          http.admin("/api/v1/admin/boards/fallback/recompute").json().get("version").asLong();

      // a miss is remembered for 250 ms before the layers are asked again
      Answer fromRedis =
          await()
              .atMost(Duration.ofSeconds(3))
              .until(() -> second.http().get("/api/v1/boards/fallback"), a -> a.status() != 503);
      assertThat(fromRedis.status()).isEqualTo(200);
      assertThat(fromRedis.header("X-Hotrank-Source")).isEqualTo("redis");
      assertThat(fromRedis.json().get("version").asLong()).isEqualTo(version);
      assertThat(second.http().get("/api/v1/boards/fallback").header("X-Hotrank-Source"))
          .isEqualTo("local");
      second.deleteRedisKeys("{b:fallback}:live");
    }
    try (SecondInstance third = SecondInstance.start(environment)) {
      Answer fromDb = third.http().get("/api/v1/boards/fallback?limit=8");
      assertThat(fromDb.status()).isEqualTo(200);
      assertThat(fromDb.body()).isEqualTo(http.get("/api/v1/boards/fallback?limit=8").body());
      JsonNode dbReads =
          third
              .http()
              .get("/actuator/metrics/hotrank.board.reads?tag=source:db&tag=board:fallback")
              .json();
      assertThat(dbReads.get("measurements").get(0).get("value").asDouble()).isEqualTo(1.0);
    }
  }
}
