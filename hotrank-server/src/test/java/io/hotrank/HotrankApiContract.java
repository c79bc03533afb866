package io.hotrank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import db.migration.V7__IndexItemTags;
import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.SecondInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.ToDoubleFunction;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
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

  /** 2^53 - 1: the largest item id, exact in a JavaScript client. */
  private static final long MAX_ID = 9007199254740991L;

  @Test
  void explicitIdsAboveTheCap_areRefused_andGeneratedIdsGoOnWorking() {
    for (long id : new long[] {Long.MAX_VALUE - 1, MAX_ID + 1}) {
      Answer refused =
          http.post(
              "/api/v1/items",
              "{\"biz\":\"news\",\"id\":" + id + ",\"authorId\":1,\"title\":\"t\"}");
      assertFieldProblem(refused, "id");
      assertThat(refused.body()).contains("must be at most " + MAX_ID);
    }
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM hr_item", Long.class)).isZero();
    assertThat(createItem("news", null, "generated", 1, null).json().get("id").asLong())
        .isEqualTo(1);
    assertThat(createItem("news", null, "generated", 1, null).json().get("id").asLong())
        .isEqualTo(2);
  }

  @Test
  void anExplicitIdAtTheCap_exhaustsGeneratedIds_a409NotA500_andExplicitIdsStillWork() {
    createItem("news", MAX_ID, "last", 1, null);
    for (int i = 0; i < 3; i++) {
      Answer exhausted =
          http.post("/api/v1/items", "{\"biz\":\"news\",\"authorId\":1,\"title\":\"t\"}");
      assertThat(exhausted.status()).as(exhausted.body()).isEqualTo(409);
      assertThat(exhausted.json().get("type").asString())
          .isEqualTo("https://hotrank.io/problems/item-ids-exhausted");
    }
    // A refused take leaves the sequence where it was.
    assertThat(
            jdbc.queryForObject(
                "SELECT next_id FROM hr_id_sequence WHERE biz = ?", Long.class, "news"))
        .isEqualTo(MAX_ID + 1);
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM hr_item", Long.class)).isEqualTo(1);
    createItem("news", 5L, "explicit", 1, null);
    assertThat(http.get("/api/v1/items/news/" + MAX_ID).status()).isEqualTo(200);
  }

  @Test
  void aSequenceRaisedPastTheCapBeforeIdsWereCapped_answers409_neverOverflows() {
    // What a database holds after the old code accepted id 9223372036854775806.
    jdbc.update("INSERT INTO hr_id_sequence (biz, next_id) VALUES (?, ?)", "news", Long.MAX_VALUE);
    Answer exhausted =
        http.post("/api/v1/items", "{\"biz\":\"news\",\"authorId\":1,\"title\":\"t\"}");
    assertThat(exhausted.status()).as(exhausted.body()).isEqualTo(409);
    assertThat(
            jdbc.queryForObject(
                "SELECT next_id FROM hr_id_sequence WHERE biz = ?", Long.class, "news"))
        .isEqualTo(Long.MAX_VALUE);
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

  // ---------------------------------------------------------------- item attributes

  private JsonNode attributes(Answer answer) {
    assertThat(answer.status()).as(answer.body()).isIn(200, 201);
    return answer.json().get("attributes");
  }

  private String storedAttributes(String biz, long id) {
    return jdbc.queryForObject(
        "SELECT attributes FROM hr_item WHERE biz = ? AND id = ?", String.class, biz, id);
  }

  private long storedVersion(String biz, long id) {
    return jdbc.queryForObject(
        "SELECT version FROM hr_item WHERE biz = ? AND id = ?", Long.class, biz, id);
  }

  @Test
  void itemAttributes_areStoredSortedByKey_andShownByEveryRead_singleBatchAndCached() {
    Answer created =
        http.post(
            "/api/v1/items",
            "{\"biz\":\"paper\",\"id\":1,\"authorId\":1,\"title\":\"one\",\"tags\":[\"t\"],"
                + "\"attributes\":{\"lang\":\"en\",\"community\":\"java\"}}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    // Sorted by key whatever the order sent, right after tags: equal maps, equal bytes.
    String canonical = "\"tags\":[\"t\"],\"attributes\":{\"community\":\"java\",\"lang\":\"en\"},";
    assertThat(created.body()).contains(canonical);
    assertThat(storedAttributes("paper", 1)).isEqualTo("{\"community\":\"java\",\"lang\":\"en\"}");
    Answer bare =
        http.post("/api/v1/items", "{\"biz\":\"paper\",\"id\":2,\"authorId\":1,\"title\":\"two\"}");
    assertThat(bare.body()).contains("\"tags\":[],\"attributes\":{},");
    assertThat(storedAttributes("paper", 2)).isEqualTo("{}");

    Answer first = http.get("/api/v1/items/paper/1");
    assertThat(first.header("X-Hotrank-Source")).isEqualTo("db");
    assertThat(first.body()).contains(canonical);
    Answer local = http.get("/api/v1/items/paper/1");
    assertThat(local.header("X-Hotrank-Source")).isEqualTo("local");
    assertThat(local.body()).isEqualTo(first.body());
    // Without this instance's memory the item comes from Redis's metadata entry, once the read
    // from the database has been written back there.
    Answer fromRedis =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> {
                  itemCacheWrites.forgetLocal();
                  return http.get("/api/v1/items/paper/1");
                },
                a -> "redis".equals(a.header("X-Hotrank-Source")));
    assertThat(fromRedis.body()).isEqualTo(first.body());

    Answer batch = http.get("/api/v1/items/paper?ids=2,1,3");
    assertThat(batch.status()).as(batch.body()).isEqualTo(200);
    assertThat(batch.json().get("items").get(0).get("attributes").isObject()).isTrue();
    assertThat(batch.json().get("items").get(0).get("attributes").size()).isZero();
    assertThat(batch.json().get("items").get(1).get("attributes").get("community").asString())
        .isEqualTo("java");
    assertThat(batch.body()).contains(canonical);
    Answer heldBatch = http.get("/api/v1/items/paper?ids=2,1");
    assertThat(heldBatch.header("X-Hotrank-Source")).isEqualTo("local");
    assertThat(heldBatch.body()).contains(canonical).contains("\"attributes\":{},");
  }

  @Test
  void editingItemAttributes_replacesThem_raisesTheVersion_andIsSeenByTheNextRead() {
    http.post(
        "/api/v1/items",
        "{\"biz\":\"paper\",\"id\":1,\"authorId\":1,\"title\":\"one\","
            + "\"attributes\":{\"community\":\"java\",\"lang\":\"en\"}}");
    assertThat(http.get("/api/v1/items/paper/1").status()).isEqualTo(200); // now cached
    long version = storedVersion("paper", 1);

    // Only the attributes change: a key removed, one changed, one added.
    Answer edited =
        http.put(
            "/api/v1/items/paper/1",
            "{\"authorId\":1,\"title\":\"one\",\"attributes\":{\"topic\":\"jvm\",\"lang\":\"de\"}}");
    assertThat(attributes(edited).propertyNames()).containsExactly("lang", "topic");
    assertThat(storedVersion("paper", 1)).isEqualTo(version + 1);
    assertThat(storedAttributes("paper", 1)).isEqualTo("{\"lang\":\"de\",\"topic\":\"jvm\"}");
    JsonNode read = attributes(http.get("/api/v1/items/paper/1"));
    assertThat(read.propertyNames()).containsExactly("lang", "topic");
    assertThat(read.get("lang").asString()).isEqualTo("de");
    JsonNode batched = http.get("/api/v1/items/paper?ids=1").json().get("items").get(0);
    assertThat(batched.get("attributes").get("topic").asString()).isEqualTo("jvm");

    Answer emptied =
        http.put("/api/v1/items/paper/1", "{\"authorId\":1,\"title\":\"one\",\"attributes\":{}}");
    assertThat(attributes(emptied).size()).isZero();
    assertThat(attributes(http.get("/api/v1/items/paper/1")).size()).isZero();
    assertThat(storedAttributes("paper", 1)).isEqualTo("{}");
    assertThat(storedVersion("paper", 1)).isEqualTo(version + 2);

    // An edit replaces every descriptive field: attributes it leaves out are none.
    http.put(
        "/api/v1/items/paper/1",
        "{\"authorId\":1,\"title\":\"one\",\"attributes\":{\"lang\":\"fr\"}}");
    assertThat(attributes(http.get("/api/v1/items/paper/1")).get("lang").asString())
        .isEqualTo("fr");
    Answer without = http.put("/api/v1/items/paper/1", "{\"authorId\":1,\"title\":\"one\"}");
    assertThat(attributes(without).size()).isZero();
    assertThat(attributes(http.get("/api/v1/items/paper/1")).size()).isZero();
  }

  /**
   * The largest attributes allowed, in the longest canonical form (every value character escaped by
   * JSON: 1,329 characters), and values that are not ASCII, come back from the column as sent.
   */
  @Test
  void theLargestAttributes_andNonAsciiValues_roundTripThroughTheDatabase() {
    Map<String, String> largest = new java.util.TreeMap<>();
    for (int i = 0; i < 8; i++) {
      largest.put(("k" + i).repeat(16), "\"\\".repeat(32)); // 64 characters, 128 escaped
    }
    Map<String, String> unicode = new java.util.TreeMap<>();
    unicode.put("emoji", "\uD83D\uDE00".repeat(32)); // 64 UTF-16 units, 32 code points
    unicode.put("lang", "日本語の記事".repeat(10) + "ü-é!");
    for (Map.Entry<Long, Map<String, String>> item : Map.of(1L, largest, 2L, unicode).entrySet()) {
      Map<String, Object> body = new java.util.LinkedHashMap<>();
      body.put("biz", "paper");
      body.put("id", item.getKey());
      body.put("authorId", 1);
      body.put("title", "large");
      body.put("attributes", item.getValue());
      Answer created = http.post("/api/v1/items", HttpJson.json(body));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
    }
    assertThat(storedAttributes("paper", 1).length()).isEqualTo(1329);

    for (int round = 0; round < 2; round++) { // from the database, then from the cache
      for (long id : new long[] {1, 2}) {
        Map<String, String> sent = id == 1 ? largest : unicode;
        assertThat(shownAttributes(http.get("/api/v1/items/paper/" + id).json()))
            .containsExactlyEntriesOf(sent);
        assertThat(
                shownAttributes(
                    http.get("/api/v1/items/paper?ids=" + id).json().get("items").get(0)))
            .containsExactlyEntriesOf(sent);
      }
    }
  }

  private static Map<String, String> shownAttributes(JsonNode item) {
    Map<String, String> shown = new java.util.LinkedHashMap<>();
    item.get("attributes")
        .properties()
        .forEach(e -> shown.put(e.getKey(), e.getValue().asString()));
    return shown;
  }

  @Test
  void itemAttributes_thatAreInvalid_areProblemsNamingTheField_andChangeNothing() {
    http.post(
        "/api/v1/items",
        "{\"biz\":\"paper\",\"id\":1,\"authorId\":1,\"title\":\"one\",\"attributes\":{\"lang\":\"en\"}}");
    String before = http.get("/api/v1/items/paper/1").body();
    long version = storedVersion("paper", 1);
    // The same problem type as a bad title's.
    String invalid =
        http.put("/api/v1/items/paper/1", "{\"authorId\":1,\"title\":\"\"}")
            .json()
            .get("type")
            .asString();
    StringBuilder nine = new StringBuilder();
    for (int i = 0; i < 9; i++) {
      nine.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
    }
    Map<String, String> refused = new java.util.LinkedHashMap<>();
    refused.put("{" + nine + "}", "attributes");
    refused.put("{\"Lang\":\"en\"}", "attributes");
    refused.put("{\"1lang\":\"en\"}", "attributes");
    refused.put("{\"lang.x\":\"en\"}", "attributes");
    refused.put("{\"\":\"en\"}", "attributes");
    refused.put("{\"" + "k".repeat(33) + "\":\"en\"}", "attributes");
    refused.put("{\"lang\":\"\"}", "attributes.lang");
    refused.put("{\"lang\":\"" + "x".repeat(65) + "\"}", "attributes.lang");
    refused.put("{\"lang\":\"a\\u0000b\"}", "attributes.lang");
    refused.put("{\"lang\":5}", "attributes.lang");
    refused.put("{\"lang\":true}", "attributes.lang");
    refused.put("{\"lang\":null}", "attributes.lang");
    refused.put("{\"lang\":[\"en\"]}", "attributes.lang");
    refused.put("{\"lang\":{\"code\":\"en\"}}", "attributes.lang");
    refused.put("\"lang=en\"", "attributes");
    refused.put("[\"lang\",\"en\"]", "attributes");
    refused.forEach(
        (attributes, field) -> {
          Answer edit =
              http.put(
                  "/api/v1/items/paper/1",
                  "{\"authorId\":2,\"title\":\"changed\",\"attributes\":" + attributes + "}");
          assertFieldProblem(edit, field);
          assertThat(edit.json().get("type").asString()).as(attributes).isEqualTo(invalid);
          Answer create =
              http.post(
                  "/api/v1/items",
                  "{\"biz\":\"paper\",\"id\":2,\"authorId\":1,\"title\":\"t\",\"attributes\":"
                      + attributes
                      + "}");
          assertFieldProblem(create, field);
          assertThat(create.json().get("type").asString()).as(attributes).isEqualTo(invalid);
        });
    assertThat(http.get("/api/v1/items/paper/1").body()).isEqualTo(before);
    assertThat(http.get("/api/v1/items/paper/2").status()).isEqualTo(404);
    assertThat(storedVersion("paper", 1)).isEqualTo(version);
    assertThat(storedAttributes("paper", 1)).isEqualTo("{\"lang\":\"en\"}");
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM hr_item", Long.class)).isEqualTo(1);
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
    redis.delete(redis.keys(keyPrefix() + "{b:fallback}*"));
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
              .get(
                  "/actuator/metrics/hotrank.board.reads?tag=source:db&tag=board:fallback",
                  third.http().adminHeader())
              .json();
      assertThat(dbReads.get("measurements").get(0).get("value").asDouble()).isEqualTo(1.0);
    }
  }

  // ---------------------------------------------------------------- the follow graph

  @Test
  void followLists_pageNewestFirst_exactlyOnce_withCountsThatFollowEveryChange() {
    // Authors 100..124, followed by user 1 a second apart, but 110..114 in the same millisecond:
    // ties go by id, highest first.
    List<Long> expected = new ArrayList<>();
    for (long author = 100; author < 125; author++) {
      if (author < 110 || author > 114) {
        clock.set(NOW.plusSeconds(author));
      } else {
        clock.set(NOW.plusSeconds(110));
      }
      assertThat(http.put("/api/v1/users/1/following/" + author, "").status()).isEqualTo(204);
      expected.addFirst(author);
    }
    // Following again changes nothing, not even when the follow was made.
    assertThat(http.put("/api/v1/users/1/following/100", "").status()).isEqualTo(204);
    for (long user = 2; user <= 3; user++) {
      assertThat(http.put("/api/v1/users/" + user + "/following/100", "").status()).isEqualTo(204);
    }

    List<Long> paged = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      Answer page =
          http.get(
              "/api/v1/users/1/following?limit=10" + (cursor == null ? "" : "&cursor=" + cursor));
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      assertThat(page.json().get("count").asLong()).isEqualTo(25);
      page.json().get("items").forEach(e -> paged.add(e.get("userId").asLong()));
      JsonNode next = page.json().get("nextCursor");
      cursor = next.isNull() ? null : next.asString();
      pages++;
    } while (cursor != null);
    assertThat(paged).containsExactlyElementsOf(expected);
    assertThat(pages).isEqualTo(3);

    Answer followers = http.get("/api/v1/users/100/followers");
    assertThat(followers.json().get("count").asLong()).isEqualTo(3);
    assertThat(followers.json().get("items").findValuesAsString("userId"))
        .containsExactly("3", "2", "1");

    // An unfollow shows at once in the list and in the cached count; repeating it changes nothing.
    assertThat(http.delete("/api/v1/users/2/following/100").status()).isEqualTo(204);
    assertThat(http.delete("/api/v1/users/2/following/100").status()).isEqualTo(204);
    followers = http.get("/api/v1/users/100/followers");
    assertThat(followers.json().get("count").asLong()).isEqualTo(2);
    assertThat(followers.json().get("items").findValuesAsString("userId"))
        .containsExactly("3", "1");
    assertThat(http.get("/api/v1/users/2/following").json().get("count").asLong()).isZero();
  }

  @Test
  void followRequests_thatAreInvalid_areProblemsNamingTheField_andChangeNothing() {
    assertFieldProblem(http.put("/api/v1/users/5/following/5", ""), "authorId");
    assertFieldProblem(http.put("/api/v1/users/0/following/5", ""), "userId");
    assertFieldProblem(http.delete("/api/v1/users/5/following/-1"), "authorId");
    assertFieldProblem(http.get("/api/v1/users/5/following?limit=0"), "limit");
    assertFieldProblem(http.get("/api/v1/users/5/followers?limit=101"), "limit");
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM hr_follow", Long.class)).isZero();

    for (long author = 10; author < 13; author++) {
      http.put("/api/v1/users/5/following/" + author, "");
      http.put("/api/v1/users/6/following/" + author, "");
    }
    String cursor =
        http.get("/api/v1/users/5/following?limit=1").json().get("nextCursor").asString();
    assertThat(http.get("/api/v1/users/5/following?limit=1&cursor=" + cursor).status())
        .isEqualTo(200);
    char last = cursor.charAt(cursor.length() - 1);
    String tampered = cursor.substring(0, cursor.length() - 1) + (last == 'A' ? 'B' : 'A');
    assertFieldProblem(http.get("/api/v1/users/5/following?cursor=" + tampered), "cursor");
    assertFieldProblem(http.get("/api/v1/users/6/following?cursor=" + cursor), "cursor");
    assertFieldProblem(http.get("/api/v1/users/5/followers?cursor=" + cursor), "cursor");
    assertFieldProblem(http.get("/api/v1/users/5/following?cursor=nonsense"), "cursor");
  }

  @Test
  void concurrentFollowsBothWays_neverDeadlock_andTheCountsMatchTheGraph() throws Exception {
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      List<Future<List<Integer>>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int seed = t;
        futures.add(
            pool.submit(
                () -> {
                  java.util.Random random = new java.util.Random(seed);
                  List<Integer> statuses = new ArrayList<>();
                  for (int i = 0; i < 40; i++) {
                    long a = 1 + random.nextInt(4);
                    long b = 1 + (a + random.nextInt(3)) % 4;
                    String path = "/api/v1/users/" + a + "/following/" + b;
                    statuses.add(
                        random.nextInt(3) == 0
                            ? http.delete(path).status()
                            : http.put(path, "").status());
                  }
                  return statuses;
                }));
      }
      for (Future<List<Integer>> f : futures) {
        assertThat(f.get()).containsOnly(204);
      }
    }
    for (long user = 1; user <= 4; user++) {
      long following =
          jdbc.queryForObject("SELECT COUNT(*) FROM hr_follow WHERE user_id = ?", Long.class, user);
      long followers =
          jdbc.queryForObject(
              "SELECT COUNT(*) FROM hr_follow WHERE author_id = ?", Long.class, user);
      assertThat(http.get("/api/v1/users/" + user + "/following").json().get("count").asLong())
          .isEqualTo(following);
      assertThat(http.get("/api/v1/users/" + user + "/followers").json().get("count").asLong())
          .isEqualTo(followers);
    }
  }

  // ---------------------------------------------------------------- time-ordered feeds

  /** An item of the feed model: what paging must return, in this order. */
  record Posted(long id, Instant createdAt, boolean even) {}

  private Posted post(long id, Instant createdAt) {
    boolean even = id % 2 == 0;
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("biz", "feed");
    body.put("id", id);
    body.put("authorId", 1 + id % 5);
    body.put("title", "item " + id);
    body.put("tags", even ? List.of("all", "even") : List.of("all"));
    body.put("createdAt", createdAt.toString());
    Answer created = http.post("/api/v1/items", HttpJson.json(body));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return new Posted(id, createdAt, even);
  }

  @Test
  void
      timeFeeds_pagedToTheEnd_whileItemsAreCreatedLikedAndDeleted_giveEachEligibleItemOnceInOrder() {
    // 60 items a minute apart, but ids 20..24 in the same millisecond (ties go by id).
    Map<Long, Posted> seeded = new java.util.HashMap<>();
    for (long id = 1; id <= 60; id++) {
      Instant at = NOW.minus(Duration.ofMinutes(id >= 20 && id <= 24 ? 20 : id));
      seeded.put(id, post(id, at));
    }
    // Deleted before paging: never shown, and pages stay full around them.
    for (long id : List.of(3L, 4L, 5L, 30L)) {
      assertThat(http.delete("/api/v1/items/feed/" + id).status()).isEqualTo(204);
      seeded.remove(id);
    }
    // Live items across both rounds; each round's model: what was live when it began, and what
    // it created or deleted meanwhile (which may show or not, but at most once, in order).
    java.util.Set<Long> live = new java.util.HashSet<>(seeded.keySet());
    for (String feed :
        List.of("/api/v1/feeds/latest?biz=feed", "/api/v1/feeds/tags/even?biz=feed")) {
      boolean evenOnly = feed.contains("even");
      Random random = new Random(feed.length());
      java.util.Set<Long> before = new java.util.HashSet<>(live);
      java.util.Set<Long> touched = new java.util.HashSet<>();
      long nextId = feed.contains("even") ? 2000 : 1000;
      List<JsonNode> got = new ArrayList<>();
      List<Integer> pageSizes = new ArrayList<>();
      String cursor = null;
      do {
        Answer page = http.get(feed + "&limit=7" + (cursor == null ? "" : "&cursor=" + cursor));
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        page.json().get("items").forEach(got::add);
        pageSizes.add(page.json().get("items").size());
        JsonNode next = page.json().get("nextCursor");
        cursor = next.isNull() ? null : next.asString();
        // Between pages: two creations (one newer than all, one at a random older time), likes,
        // and a deletion of a random live item.
        for (int k = 0; k < 2; k++) {
          Instant at = k == 0 ? NOW : NOW.minus(Duration.ofMinutes(random.nextInt(70)));
          Posted p = post(nextId++, at);
          touched.add(p.id());
          live.add(p.id());
        }
        List<Long> pool = new ArrayList<>(live);
        java.util.Collections.sort(pool);
        long liked = pool.get(random.nextInt(pool.size()));
        postEvents("{\"biz\":\"feed\",\"itemId\":" + liked + ",\"type\":\"like\"}");
        long deleted = pool.get(random.nextInt(pool.size()));
        assertThat(http.delete("/api/v1/items/feed/" + deleted).status()).isEqualTo(204);
        live.remove(deleted);
        touched.add(deleted);
      } while (cursor != null);

      List<Long> ids = got.stream().map(n -> n.get("itemId").asLong()).toList();
      assertThat(ids).as(feed + ": no item twice").doesNotHaveDuplicates();
      // Newest first, ties by id highest first, ranks counting on across pages.
      for (int i = 1; i < got.size(); i++) {
        Instant a = Instant.parse(got.get(i - 1).get("createdAt").asString());
        Instant b = Instant.parse(got.get(i).get("createdAt").asString());
        assertThat(a.isAfter(b) || (a.equals(b) && ids.get(i - 1) > ids.get(i)))
            .as(feed + " order at " + i)
            .isTrue();
        assertThat(got.get(i).get("rank").asInt()).isEqualTo(i + 1);
      }
      // Every item live throughout and eligible appears; nothing else but items touched meanwhile.
      for (long id : before) {
        if (!touched.contains(id) && (!evenOnly || id % 2 == 0)) {
          assertThat(ids).as(feed + " lacks " + id).contains(id);
        }
      }
      for (long id : ids) {
        assertThat(before.contains(id) || touched.contains(id)).as(feed + " shows " + id).isTrue();
        assertThat(!evenOnly || id % 2 == 0).as(feed + " shows odd " + id).isTrue();
      }
      assertThat(pageSizes.subList(0, pageSizes.size() - 1)).as(feed).containsOnly(7);
      assertThat(got.getFirst().get("counts").get("like")).isNotNull();
      assertThat(got.getFirst().has("score")).isFalse();
    }
  }

  @Test
  void timeFeedCursors_thatWereAlteredOrBelongToAnotherFeed_areRefused() {
    for (long id = 1; id <= 3; id++) {
      post(id * 2, NOW.minusSeconds(id));
    }
    String cursor =
        http.get("/api/v1/feeds/latest?biz=feed&limit=1").json().get("nextCursor").asString();
    assertThat(http.get("/api/v1/feeds/latest?biz=feed&limit=1&cursor=" + cursor).status())
        .isEqualTo(200);
    String tampered =
        cursor.substring(0, 2) + (cursor.charAt(2) == 'x' ? 'y' : 'x') + cursor.substring(3);
    assertFieldProblem(http.get("/api/v1/feeds/latest?biz=feed&cursor=" + tampered), "cursor");
    assertFieldProblem(http.get("/api/v1/feeds/tags/even?biz=feed&cursor=" + cursor), "cursor");
    assertFieldProblem(http.get("/api/v1/feeds/latest?biz=other&cursor=" + cursor), "cursor");
    assertFieldProblem(http.get("/api/v1/feeds/latest"), "biz");
    assertFieldProblem(http.get("/api/v1/feeds/latest?biz=feed&limit=0"), "limit");
    assertFieldProblem(http.get("/api/v1/feeds/tags/" + "x".repeat(33) + "?biz=feed"), "tag");
  }

  @Test
  void theTagBackfillMigration_indexesEveryLiveItemsTags_once(@Autowired Flyway flyway)
      throws Exception {
    // The service's Flyway runs the Java migration, which its engine's location does not hold.
    assertThat(flyway.info().applied())
        .extracting(applied -> applied.getVersion().getVersion())
        .contains("7");
    for (long id = 1; id <= 5; id++) {
      post(id, NOW.minusSeconds(id));
    }
    assertThat(http.delete("/api/v1/items/feed/2").status()).isEqualTo(204);
    String tagRows = "SELECT COUNT(*) FROM hr_item_tag";
    long written = jdbc.queryForObject(tagRows, Long.class);
    // 1..5 tagged "all", the even ones "even" too; item 2 deleted: 4 + 1.
    assertThat(written).isEqualTo(5);
    jdbc.update("DELETE FROM hr_item_tag");
    try (java.sql.Connection connection = jdbc.getDataSource().getConnection()) {
      org.flywaydb.core.api.migration.Context context =
          new org.flywaydb.core.api.migration.Context() {
            @Override
            public org.flywaydb.core.api.configuration.Configuration getConfiguration() {
              return null;
            }

            @Override
            public java.sql.Connection getConnection() {
              return connection;
            }
          };
      new V7__IndexItemTags().migrate(context);
    }
    assertThat(jdbc.queryForObject(tagRows, Long.class)).isEqualTo(written);
    assertThat(
            http.get("/api/v1/feeds/tags/even?biz=feed")
                .json()
                .get("items")
                .findValuesAsString("itemId"))
        .containsExactly("4");
  }

  // ---------------------------------------------------------------- the following feed

  private void fanOut() {
    Answer done = http.admin("/api/v1/admin/feeds/fanout");
    assertThat(done.status()).as(done.body()).isEqualTo(200);
  }

  private long postBy(long id, long author, Instant createdAt) {
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("biz", "feed");
    body.put("id", id);
    body.put("authorId", author);
    body.put("title", "item " + id);
    body.put("createdAt", createdAt.toString());
    Answer created = http.post("/api/v1/items", HttpJson.json(body));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return id;
  }

  @Test
  void followingFeed_pagedWhileAuthorsPostLikeAndDelete_givesEachEligibleItemOnce_inOrder() {
    for (long author = 11; author <= 15; author++) {
      assertThat(http.put("/api/v1/users/1/following/" + author, "").status()).isEqualTo(204);
    }
    assertThat(http.get("/api/v1/users/1/feed").json().get("items").size()).isZero();
    Map<Long, Long> authorOf = new java.util.HashMap<>();
    Random random = new Random(5);
    for (long id = 1; id <= 40; id++) {
      long author = 11 + random.nextInt(10); // half of them followed
      postBy(id, author, NOW.minus(Duration.ofMinutes(random.nextInt(30))));
      authorOf.put(id, author);
    }
    fanOut();
    java.util.Set<Long> live = new java.util.HashSet<>(authorOf.keySet());
    java.util.Set<Long> touched = new java.util.HashSet<>();
    List<JsonNode> got = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    long nextId = 100;
    String cursor = null;
    do {
      Answer page =
          http.get("/api/v1/users/1/feed?limit=6" + (cursor == null ? "" : "&cursor=" + cursor));
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      page.json().get("items").forEach(got::add);
      sizes.add(page.json().get("items").size());
      JsonNode next = page.json().get("nextCursor");
      cursor = next.isNull() ? null : next.asString();
      for (int k = 0; k < 2; k++) {
        long author = 11 + random.nextInt(5);
        Instant at = k == 0 ? NOW : NOW.minus(Duration.ofMinutes(random.nextInt(30)));
        authorOf.put(postBy(nextId, author, at), author);
        touched.add(nextId++);
      }
      fanOut();
      List<Long> pool = new ArrayList<>(live);
      java.util.Collections.sort(pool);
      postEvents(
          "{\"biz\":\"feed\",\"itemId\":"
              + pool.get(random.nextInt(pool.size()))
              + ",\"type\":\"like\"}");
      long deleted = pool.get(random.nextInt(pool.size()));
      assertThat(http.delete("/api/v1/items/feed/" + deleted).status()).isEqualTo(204);
      live.remove(deleted);
      touched.add(deleted);
    } while (cursor != null);

    List<Long> ids = got.stream().map(n -> n.get("itemId").asLong()).toList();
    assertThat(ids).doesNotHaveDuplicates();
    for (int i = 1; i < got.size(); i++) {
      Instant a = Instant.parse(got.get(i - 1).get("createdAt").asString());
      Instant b = Instant.parse(got.get(i).get("createdAt").asString());
      assertThat(a.isAfter(b) || (a.equals(b) && ids.get(i - 1) > ids.get(i)))
          .as("order at " + i)
          .isTrue();
      assertThat(got.get(i).get("rank").asInt()).isEqualTo(i + 1);
    }
    for (long id : live) {
      if (!touched.contains(id) && authorOf.get(id) <= 15) {
        assertThat(ids).as("lacks " + id).contains(id);
      }
    }
    for (long id : ids) {
      assertThat(authorOf.get(id)).as("author of " + id).isBetween(11L, 15L);
      assertThat(live.contains(id) || touched.contains(id)).as("shows " + id).isTrue();
    }
    assertThat(sizes.subList(0, sizes.size() - 1)).containsOnly(6);

    // An unfollow and a deletion stop showing at once, without a fan-out.
    JsonNode first = http.get("/api/v1/users/1/feed?limit=100").json().get("items");
    long shownAuthor = first.get(0).get("authorId").asLong();
    long shownItem = first.get(1).get("itemId").asLong();
    assertThat(http.delete("/api/v1/users/1/following/" + shownAuthor).status()).isEqualTo(204);
    assertThat(http.delete("/api/v1/items/feed/" + shownItem).status()).isEqualTo(204);
    JsonNode after = http.get("/api/v1/users/1/feed?limit=100").json().get("items");
    assertThat(after.findValuesAsString("authorId")).doesNotContain(Long.toString(shownAuthor));
    assertThat(after.findValuesAsString("itemId")).doesNotContain(Long.toString(shownItem));
  }

  @Test
  void followingFeed_pastMoreDeletedEntriesThanAPageLooksAt_goesOnToTheRest() {
    http.put("/api/v1/users/1/following/11", "");
    http.put("/api/v1/users/1/following/12", "");
    assertThat(http.get("/api/v1/users/1/feed").status()).isEqualTo(200);
    for (long id = 1; id <= 5; id++) {
      postBy(id, 12, NOW.minus(Duration.ofHours(1)).minusSeconds(id));
    }
    for (long id = 100; id < 280; id++) {
      postBy(id, 11, NOW.minusSeconds(id));
    }
    fanOut();
    for (long id = 100; id < 280; id++) {
      assertThat(http.delete("/api/v1/items/feed/" + id).status()).isEqualTo(204);
    }
    List<Long> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      Answer page =
          http.get("/api/v1/users/1/feed?limit=20" + (cursor == null ? "" : "&cursor=" + cursor));
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      page.json().get("items").forEach(e -> seen.add(e.get("itemId").asLong()));
      JsonNode next = page.json().get("nextCursor");
      cursor = next.isNull() ? null : next.asString();
      assertThat(++pages).isLessThan(20);
    } while (cursor != null);
    assertThat(seen).containsExactly(1L, 2L, 3L, 4L, 5L);
    // The deleted entries were confirmed deleted and left the inbox: now one page holds the rest.
    JsonNode again = http.get("/api/v1/users/1/feed?limit=20").json();
    assertThat(again.get("items").findValuesAsString("itemId"))
        .containsExactly("1", "2", "3", "4", "5");
    assertThat(again.get("nextCursor").isNull()).isTrue();
  }

  @Test
  void followingFeedCursors_fromAnotherUserOrAltered_areRefused() {
    http.put("/api/v1/users/1/following/11", "");
    http.put("/api/v1/users/2/following/11", "");
    for (long id = 1; id <= 3; id++) {
      postBy(id, 11, NOW.minusSeconds(id));
    }
    fanOut();
    String cursor = http.get("/api/v1/users/1/feed?limit=1").json().get("nextCursor").asString();
    assertThat(http.get("/api/v1/users/1/feed?limit=1&cursor=" + cursor).json().get("items"))
        .hasSize(1);
    assertFieldProblem(http.get("/api/v1/users/2/feed?cursor=" + cursor), "cursor");
    String tampered =
        cursor.substring(0, 4) + (cursor.charAt(4) == 'x' ? 'y' : 'x') + cursor.substring(5);
    assertFieldProblem(http.get("/api/v1/users/1/feed?cursor=" + tampered), "cursor");
    assertFieldProblem(http.get("/api/v1/users/0/feed"), "userId");
  }

  // ---------------------------------------------------------------- hot paging

  private void like(long id, int times) {
    String[] events = new String[times];
    java.util.Arrays.fill(events, "{\"biz\":\"news\",\"itemId\":" + id + ",\"type\":\"like\"}");
    postEvents(events);
  }

  private long recompute(String board) {
    Answer done = http.admin("/api/v1/admin/boards/" + board + "/recompute");
    assertThat(done.status()).as(done.body()).isEqualTo(200);
    return done.json().get("version").asLong();
  }

  @Test
  void hotPaging_acrossSeveralPublishes_neverRepeatsOrSkips_andAnExpiredVersionIsA410() {
    for (long id = 1; id <= 8; id++) {
      createItem("news", id, "news " + id, 1, NOW.minusSeconds(60 * id));
      like(id, (int) id);
    }
    long first = recompute("news-hn");
    List<Long> ranked = boardIds("news-hn");
    assertThat(ranked).hasSize(8);

    List<Long> paged = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    String cursor = "";
    long removed = ranked.get(7); // item 1, on the last page: deleted before it is read
    int page = 0;
    do {
      Answer answer = http.get("/api/v1/boards/news-hn?limit=3&cursor=" + cursor);
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(answer.json().get("version").asLong()).isEqualTo(first);
      answer.json().get("items").forEach(e -> paged.add(e.get("itemId").asLong()));
      sizes.add(answer.json().get("items").size());
      JsonNode next = answer.json().get("nextCursor");
      cursor = next.isNull() ? null : next.asString();
      // Between pages the ranking turns over and is published again.
      for (long id = 2; id <= 4; id++) {
        like(id, 10 * (page + 1));
      }
      assertThat(recompute("news-hn")).isGreaterThan(first);
      if (page == 0) {
        assertThat(http.delete("/api/v1/items/news/" + removed).status()).isEqualTo(204);
      }
      page++;
    } while (cursor != null);
    List<Long> expected = new ArrayList<>(ranked);
    expected.remove(removed);
    assertThat(paged).containsExactlyElementsOf(expected);
    assertThat(sizes).containsExactly(3, 3, 1);

    // A version no longer kept: a clear 410 telling the client to start again.
    String next =
        http.get("/api/v1/boards/news-hn?limit=2&cursor=").json().get("nextCursor").asString();
    long version = http.get("/api/v1/boards/news-hn").json().get("version").asLong();
    recompute("news-hn");
    redis.delete(keyPrefix() + "{b:news-hn}:v:" + version);
    Answer gone = http.get("/api/v1/boards/news-hn?limit=2&cursor=" + next);
    assertThat(gone.status()).as(gone.body()).isEqualTo(410);
    assertThat(gone.json().get("type").asString())
        .isEqualTo("https://hotrank.io/problems/board-version-expired");
    assertThat(gone.json().get("detail").asString()).contains("start again");

    assertFieldProblem(http.get("/api/v1/boards/news-hn?cursor=" + next + "x"), "cursor");
    assertFieldProblem(http.get("/api/v1/boards/news-hn?cursor=&offset=1"), "offset");
    assertFieldProblem(http.get("/api/v1/boards/news-hn?cursor=&limit=9"), "limit");
  }

  private static void assertFieldProblem(Answer answer, String field) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertThat(answer.json().get("errors").findValuesAsString("field")).contains(field);
  }
}
