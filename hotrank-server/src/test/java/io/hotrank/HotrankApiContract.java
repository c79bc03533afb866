package io.hotrank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.MutableClock;
import io.hotrank.support.TestClockConfiguration;
import io.hotrank.support.TestEngines;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The behaviour of the v1 API against one database engine and a real Redis, through HTTP. One
 * subclass per engine; every test here runs on each engine the environment provides.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@Import(TestClockConfiguration.class)
// Inlined, so the embedded default sees it: a blank value means "start the embedded binary".
@TestPropertySource(properties = "spring.data.redis.url=${HOTRANK_TEST_REDIS_URL:}")
abstract class HotrankApiContract {

  /** The fixed "now" of these tests; whole seconds keep the Reddit arithmetic exact. */
  static final Instant NOW = TestClockConfiguration.START;

  /** This run's Redis keys live under their own prefix: the shared Redis is never flushed. */
  static final String KEY_PREFIX = "hrtest:" + UUID.randomUUID() + ":";

  @DynamicPropertySource
  static void common(DynamicPropertyRegistry registry) {
    registry.add("hotrank.redis.key-prefix", () -> KEY_PREFIX);
  }

  @LocalServerPort int port;
  @Autowired JdbcTemplate jdbc;
  @Autowired MutableClock clock;
  @Autowired Environment environment;
  @Autowired StringRedisTemplate redis;
  HttpJson http;

  /** The engine name for the end-of-run report. */
  abstract String engine();

  @BeforeEach
  void resetData() {
    TestEngines.exercised(engine());
    clock.set(NOW);
    http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    for (String table : List.of("hr_user_action", "hr_item_counter", "hr_item", "hr_id_sequence")) {
      jdbc.update("DELETE FROM " + table);
    }
  }

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

  Answer createItem(String biz, Long id, String title, long authorId, Instant createdAt) {
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("biz", biz);
    if (id != null) {
      body.put("id", id);
    }
    body.put("authorId", authorId);
    body.put("title", title);
    body.put("tags", List.of("t1", "t2"));
    if (createdAt != null) {
      body.put("createdAt", createdAt.toString());
    }
    Answer created = http.post("/api/v1/items", HttpJson.json(body));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created;
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

  private void postEvents(String... events) {
    Answer answer = http.post("/api/v1/events", "{\"events\":[" + String.join(",", events) + "]}");
    assertThat(answer.status()).as(answer.body()).isEqualTo(202);
  }

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

  // ---------------------------------------------------------------- board reads

  private List<Long> boardIds(String board) {
    List<Long> ids = new ArrayList<>();
    http.get("/api/v1/boards/" + board + "?limit=8")
        .json()
        .get("items")
        .forEach(e -> ids.add(e.get("itemId").asLong()));
    return ids;
  }

  @Test
  void boardWindows_areSlicesOfTheWholeBoard_andDefaultLimitApplies() {
    for (long id = 1; id <= 6; id++) {
      createItem("news", id, "item " + id, 1, NOW.minusSeconds(600 * id));
    }
    http.admin("/api/v1/admin/boards/news-decay/recompute");
    JsonNode whole = http.get("/api/v1/boards/news-decay?limit=8").json();
    assertThat(whole.get("items")).hasSize(6);
    JsonNode byDefault = http.get("/api/v1/boards/news-decay").json();
    assertThat(byDefault.get("items")).hasSize(3);
    JsonNode window = http.get("/api/v1/boards/news-decay?offset=2&limit=3").json();
    for (int i = 0; i < 3; i++) {
      assertThat(window.get("items").get(i)).isEqualTo(whole.get("items").get(i + 2));
    }
    assertThat(http.get("/api/v1/boards/news-decay?offset=5&limit=8").json().get("items"))
        .hasSize(1);
  }

  @Test
  void conditionalRead_withCurrentEtag_is304WithoutBody_andOldEtagGetsTheNewBoard() {
    createItem("news", 1L, "etag", 1, NOW.minusSeconds(60));
    http.admin("/api/v1/admin/boards/news-hn/recompute");
    Answer first = http.get("/api/v1/boards/news-hn");
    String etag = first.header("ETag");
    assertThat(etag).isEqualTo("\"" + first.json().get("version").asLong() + "\"");
    assertThat(first.header("Cache-Control")).contains("max-age=").contains("stale-if-error");
    assertThat(first.header("Age")).isNotNull();

    Answer notModified = http.get("/api/v1/boards/news-hn", "If-None-Match", etag);
    assertThat(notModified.status()).isEqualTo(304);
    assertThat(notModified.raw()).isEmpty();

    http.admin("/api/v1/admin/boards/news-hn/recompute");
    Answer changed = http.get("/api/v1/boards/news-hn", "If-None-Match", etag);
    assertThat(changed.status()).isEqualTo(200);
    assertThat(changed.header("ETag")).isNotEqualTo(etag);
  }

  @Test
  void staticExport_writesTheDefaultBodyByteForByte_andAPage() throws Exception {
    createItem("news", 1L, "exported <b>", 1, NOW.minusSeconds(60));
    createItem("news", 2L, "second", 1, NOW.minusSeconds(120));
    long version =
        http.admin("/api/v1/admin/boards/news-decay/recompute").json().get("version").asLong();
    java.nio.file.Path dir =
        java.nio.file.Path.of(environment.getProperty("hotrank.export.dir"), "boards");
    Answer served = http.get("/api/v1/boards/news-decay");
    assertThat(served.json().get("version").asLong()).isEqualTo(version);
    assertThat(java.nio.file.Files.readAllBytes(dir.resolve("news-decay.json")))
        .isEqualTo(served.raw());
    assertThat(java.nio.file.Files.readString(dir.resolve("news-decay.html")))
        .contains("exported &lt;b&gt;")
        .contains("version " + version);
    assertThat(
            java.nio.file.attribute.PosixFilePermissions.toString(
                java.nio.file.Files.getPosixFilePermissions(dir.resolve("news-decay.json"))))
        .as("readable by a web server running as another user")
        .endsWith("r--");
    try (var leftovers = java.nio.file.Files.list(dir)) {
      assertThat(leftovers.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  @Test
  void readServerPort_answersExactlyLikeTheMainPort() {
    for (long id = 1; id <= 5; id++) {
      createItem("news", id, "item " + id, 1, NOW.minusSeconds(300 * id));
    }
    http.admin("/api/v1/admin/boards/news-hn/recompute");
    HttpJson readPort =
        new HttpJson("http://127.0.0.1:" + environment.getProperty("local.read-server.port"), "");
    for (String path :
        List.of(
            "/api/v1/boards/news-hn",
            "/api/v1/boards/news-hn?limit=8",
            "/api/v1/boards/news-hn?offset=1&limit=2",
            "/api/v1/boards/news-hn?limit=0",
            "/api/v1/boards/news-hn?limit=ten",
            "/api/v1/boards/news-hn?offset=99",
            "/api/v1/boards/news-hn?limit=",
            "/api/v1/boards/news-hn?cursor=abc",
            "/api/v1/boards/nope",
            "/api/v1/boards/ghost")) {
      Answer main = http.get(path);
      Answer fast = readPort.get(path);
      assertThat(fast.status()).as(path).isEqualTo(main.status());
      assertThat(fast.header("Content-Type")).as(path).isEqualTo(main.header("Content-Type"));
      for (String header :
          List.of("ETag", "Cache-Control", "X-Hotrank-Source", "X-Hotrank-Origin", "Retry-After")) {
        assertThat(fast.header(header)).as(path + " " + header).isEqualTo(main.header(header));
      }
      if (main.status() == 200) {
        assertThat(fast.raw()).as(path).isEqualTo(main.raw());
      } else {
        assertThat(fast.json()).as(path).isEqualTo(main.json());
      }
    }
    String etag = http.get("/api/v1/boards/news-hn").header("ETag");
    Answer notModified = readPort.get("/api/v1/boards/news-hn", "If-None-Match", etag);
    assertThat(notModified.status()).isEqualTo(304);
    assertThat(notModified.raw()).isEmpty();
  }

  @Test
  void concurrentReadsOfABoardNoLayerHas_costTheLayersAboutOneLookup() throws Exception {
    java.util.function.DoubleSupplier loads =
        () ->
            http.get("/actuator/metrics/hotrank.board.read.loads")
                .json()
                .get("measurements")
                .get(0)
                .get("value")
                .asDouble();
    double before = loads.getAsDouble();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(16);
    try {
      List<java.util.concurrent.Future<Integer>> reads = new ArrayList<>();
      for (int i = 0; i < 48; i++) {
        reads.add(pool.submit(() -> http.get("/api/v1/boards/ghost").status()));
      }
      for (var read : reads) {
        assertThat(read.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(503);
      }
    } finally {
      pool.shutdownNow();
    }
    // One load per 250 ms memory of "nothing there" while the reads last, far below one each.
    assertThat(loads.getAsDouble() - before).isBetween(0.0, 8.0);
  }

  @Test
  void boardNeverComputed_is503WithRetryAfter() {
    Answer answer = http.get("/api/v1/boards/ghost");
    assertThat(answer.status()).isEqualTo(503);
    assertThat(answer.header("Retry-After")).isEqualTo("7");
    assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
  }

  @Test
  void boardList_namesEveryConfiguredBoard() {
    JsonNode boards = http.get("/api/v1/boards").json();
    List<String> names = new ArrayList<>();
    boards.forEach(b -> names.add(b.get("name").asString()));
    assertThat(names)
        .containsExactly("news-hn", "news-reddit", "news-decay", "fallback", "ghost", "ticker");
    assertThat(boards.get(0).get("algorithm").asString()).isEqualTo("hacker-news");
    assertThat(boards.get(0).get("size").asInt()).isEqualTo(8);
  }

  @Test
  void scheduledBoard_isRecomputedOnItsCron() {
    createItem("tick", 1L, "tick", 1, NOW.minusSeconds(10));
    long seen = http.get("/api/v1/boards").json().get(5).path("version").asLong(0);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(http.get("/api/v1/boards").json().get(5).get("version").asLong())
                    .isGreaterThan(seen + 1));
    assertThat(http.get("/api/v1/boards/ticker").json().get("items").get(0).get("itemId").asLong())
        .isEqualTo(1);
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

  // ---------------------------------------------------------------- bad input

  /** One refused request: what is sent, the status and the field the problem must name. */
  record BadInput(String name, String method, String path, String body, int status, String field) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<BadInput> badInputs() {
    String tooMany =
        "{\"events\":["
            + String.join(
                ",",
                java.util.Collections.nCopies(
                    1001, "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"}"))
            + "]}";
    String longTitle = "x".repeat(201);
    return List.of(
        new BadInput("item: malformed JSON", "POST", "/api/v1/items", "{\"biz\":", 400, "body"),
        new BadInput(
            "item: negative id",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":-5,\"authorId\":1,\"title\":\"t\"}",
            400,
            "id"),
        new BadInput(
            "item: id of the wrong type",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":\"seven\",\"authorId\":1,\"title\":\"t\"}",
            400,
            "id"),
        new BadInput(
            "item: oversized title",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":9,\"authorId\":1,\"title\":\"" + longTitle + "\"}",
            400,
            "title"),
        new BadInput(
            "item: missing title",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":9,\"authorId\":1}",
            400,
            "title"),
        new BadInput(
            "item: bad biz",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"News!\",\"id\":9,\"authorId\":1,\"title\":\"t\"}",
            400,
            "biz"),
        new BadInput(
            "item: negative author",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":9,\"authorId\":-1,\"title\":\"t\"}",
            400,
            "authorId"),
        new BadInput(
            "item: tag with a comma",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":9,\"authorId\":1,\"title\":\"t\",\"tags\":[\"a,b\"]}",
            400,
            "tags[0]"),
        new BadInput(
            "item: createdAt in the future",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":9,\"authorId\":1,\"title\":\"t\",\"createdAt\":\"2030-01-01T00:00:00Z\"}",
            400,
            "createdAt"),
        new BadInput(
            "item: createdAt not a timestamp",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":9,\"authorId\":1,\"title\":\"t\",\"createdAt\":\"yesterday\"}",
            400,
            "createdAt"),
        new BadInput(
            "item: NUL in the title",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":9,\"authorId\":1,\"title\":\"a\\u0000b\"}",
            400,
            "title"),
        new BadInput(
            "item: createdAt before 1970",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":9,\"authorId\":1,\"title\":\"t\",\"createdAt\":\"1969-12-31T23:59:59Z\"}",
            400,
            "createdAt"),
        new BadInput(
            "item: existing id",
            "POST",
            "/api/v1/items",
            "{\"biz\":\"news\",\"id\":1,\"authorId\":1,\"title\":\"t\"}",
            409,
            "id"),
        new BadInput("item: get unknown", "GET", "/api/v1/items/news/999", null, 404, null),
        new BadInput(
            "item: put unknown",
            "PUT",
            "/api/v1/items/news/999",
            "{\"authorId\":1,\"title\":\"t\"}",
            404,
            null),
        new BadInput(
            "item: put oversized title",
            "PUT",
            "/api/v1/items/news/1",
            "{\"authorId\":1,\"title\":\"" + longTitle + "\"}",
            400,
            "title"),
        new BadInput(
            "item: put other id",
            "PUT",
            "/api/v1/items/news/1",
            "{\"id\":2,\"authorId\":1,\"title\":\"t\"}",
            400,
            "id"),
        new BadInput("item: delete unknown", "DELETE", "/api/v1/items/news/999", null, 404, null),
        new BadInput(
            "events: malformed JSON", "POST", "/api/v1/events", "{\"events\":[", 400, null),
        new BadInput("events: missing list", "POST", "/api/v1/events", "{}", 400, "events"),
        new BadInput(
            "events: empty list", "POST", "/api/v1/events", "{\"events\":[]}", 400, "events"),
        new BadInput("events: more than 1000", "POST", "/api/v1/events", tooMany, 400, "events"),
        new BadInput(
            "events: unknown type",
            "POST",
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"},"
                + "{\"biz\":\"news\",\"itemId\":1,\"type\":\"love\"}]}",
            400,
            "events[1].type"),
        new BadInput(
            "events: negative item id",
            "POST",
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"},"
                + "{\"biz\":\"news\",\"itemId\":-1,\"type\":\"like\"}]}",
            400,
            "events[1].itemId"),
        new BadInput(
            "events: missing type",
            "POST",
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"news\",\"itemId\":1}]}",
            400,
            "events[0].type"),
        new BadInput(
            "events: negative user",
            "POST",
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"userId\":-3}]}",
            400,
            "events[0].userId"),
        new BadInput(
            "events: item id of the wrong type",
            "POST",
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"news\",\"itemId\":\"one\",\"type\":\"like\"}]}",
            400,
            "events[0].itemId"),
        new BadInput(
            "events: unknown item",
            "POST",
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"},"
                + "{\"biz\":\"news\",\"itemId\":77,\"type\":\"like\"}]}",
            404,
            "events[1].itemId"),
        new BadInput(
            "board: limit zero", "GET", "/api/v1/boards/news-hn?limit=0", null, 400, "limit"),
        new BadInput(
            "board: limit above size", "GET", "/api/v1/boards/news-hn?limit=9", null, 400, "limit"),
        new BadInput(
            "board: negative offset",
            "GET",
            "/api/v1/boards/news-hn?offset=-1",
            null,
            400,
            "offset"),
        new BadInput(
            "board: offset past the end",
            "GET",
            "/api/v1/boards/news-hn?offset=8",
            null,
            400,
            "offset"),
        new BadInput(
            "board: limit not a number",
            "GET",
            "/api/v1/boards/news-hn?limit=ten",
            null,
            400,
            "limit"),
        new BadInput("board: unknown", "GET", "/api/v1/boards/nope", null, 404, null),
        new BadInput(
            "board: cursor", "GET", "/api/v1/boards/news-hn?cursor=x", null, 400, "cursor"),
        new BadInput(
            "recompute: no token", "POST", "/api/v1/admin/boards/news-hn/recompute", "", 401, null),
        new BadInput(
            "recompute: unknown board",
            "POST",
            "/api/v1/admin/boards/nope/recompute?admin",
            "",
            404,
            null));
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.MethodSource("badInputs")
  void badInput_getsAProblemNamingTheField_andChangesNothing(BadInput bad) {
    createItem("news", 1L, "untouched", 1, NOW.minusSeconds(60));
    postEvents(
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"userId\":1}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"view\"}");
    String before = http.get("/api/v1/items/news/1").body();
    Integer items = jdbc.queryForObject("SELECT COUNT(*) FROM hr_item", Integer.class);
    Integer actions = jdbc.queryForObject("SELECT COUNT(*) FROM hr_user_action", Integer.class);

    Answer answer =
        switch (bad.method()) {
          case "GET" -> http.get(bad.path());
          case "PUT" -> http.put(bad.path(), bad.body());
          case "DELETE" -> http.delete(bad.path());
          default ->
              bad.path().endsWith("?admin")
                  ? http.admin(bad.path().replace("?admin", ""))
                  : http.post(bad.path(), bad.body());
        };

    assertThat(answer.status()).as(answer.body()).isEqualTo(bad.status());
    assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
    JsonNode problem = answer.json();
    assertThat(problem.get("status").asInt()).isEqualTo(bad.status());
    assertThat(problem.get("type").asString()).startsWith("https://hotrank.io/problems/");
    assertThat(problem.get("title").asString()).isNotBlank();
    assertThat(problem.get("detail").asString()).isNotBlank();
    if (bad.field() != null) {
      List<String> fields = new ArrayList<>();
      problem.get("errors").forEach(e -> fields.add(e.get("field").asString()));
      assertThat(fields).contains(bad.field());
    }
    assertThat(http.get("/api/v1/items/news/1").body()).isEqualTo(before);
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM hr_item", Integer.class)).isEqualTo(items);
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM hr_user_action", Integer.class))
        .isEqualTo(actions);
  }

  @Test
  void recompute_withAWrongToken_is401_andPublishesNothing() {
    createItem("news", 1L, "x", 1, NOW.minusSeconds(60));
    long before = http.get("/api/v1/boards").json().get(0).path("version").asLong(0);
    Answer answer =
        http.post(
            "/api/v1/admin/boards/news-hn/recompute", "", "Authorization", "Bearer not-the-token");
    assertThat(answer.status()).isEqualTo(401);
    assertThat(answer.header("WWW-Authenticate")).startsWith("Bearer");
    assertThat(http.get("/api/v1/boards").json().get(0).path("version").asLong(0))
        .isEqualTo(before);
  }
}
