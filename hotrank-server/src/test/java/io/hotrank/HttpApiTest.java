package io.hotrank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The behaviour of the v1 API that does not depend on the database engine (board windows and
 * caching headers, the read port, static export, bad input, admin auth), run once, on H2. It shares
 * {@link H2ApiTest}'s Spring context.
 */
@TestPropertySource(properties = "hotrank.data-dir=target/test-data/h2")
@Tag("cluster")
class HttpApiTest extends ApiTestSupport {

  @Override
  protected String engine() {
    return "H2";
  }

  // ---------------------------------------------------------------- board reads

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
    // Cursor paging is served on the main port only; the read port says so, naming the field.
    Answer cursor = readPort.get("/api/v1/boards/news-hn?cursor=");
    assertThat(cursor.status()).isEqualTo(400);
    assertThat(cursor.json().get("errors").findValuesAsString("field")).containsExactly("cursor");
    assertThat(http.get("/api/v1/boards/news-hn?cursor=").status()).isEqualTo(200);
  }

  @Test
  void concurrentReadsOfABoardNoLayerHas_costTheLayersAboutOneLookup() throws Exception {
    java.util.function.DoubleSupplier loads =
        () ->
            http.get("/actuator/metrics/hotrank.board.read.loads", http.adminHeader())
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
        .containsExactly(
            "news-hn",
            "news-reddit",
            "news-decay",
            "fallback",
            "ghost",
            "ticker",
            "trust-hn",
            "trust-raw",
            "trust-liked",
            "trust-window",
            "trust-window-raw",
            "trust-window-tag",
            "review-required",
            "review-by-tag",
            "review-live",
            "review-suspicious",
            "expl-hn",
            "expl-reddit",
            "expl-decay",
            "expl-window",
            "expl-liked",
            "expl-off");
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
        new BadInput("batch read: no ids", "GET", "/api/v1/items/news", null, 400, "ids"),
        new BadInput("batch read: id 0", "GET", "/api/v1/items/news?ids=1,0", null, 400, "ids"),
        new BadInput(
            "batch read: not a number", "GET", "/api/v1/items/news?ids=1,x", null, 400, "ids"),
        new BadInput(
            "batch read: 101 ids",
            "GET",
            "/api/v1/items/news?ids=" + "1,".repeat(100) + "1",
            null,
            400,
            "ids"),
        new BadInput("batch read: bad biz", "GET", "/api/v1/items/NEWS?ids=1", null, 400, "biz"),
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
  void adminJobs_showsEachBoardJob_itsLeaseAndLastRun_andNeedsTheToken() {
    assertThat(http.get("/api/v1/admin/jobs").status()).isEqualTo(401);
    createItem("news", 1L, "x", 1, NOW.minusSeconds(60));
    assertThat(http.admin("/api/v1/admin/boards/news-hn/recompute").status()).isEqualTo(200);

    Answer view = http.get("/api/v1/admin/jobs", "Authorization", "Bearer test-admin-token");
    assertThat(view.status()).as(view.body()).isEqualTo(200);
    assertThat(view.json().get("instance").asString()).isNotBlank();
    Map<String, JsonNode> jobs = new java.util.HashMap<>();
    view.json().get("jobs").forEach(j -> jobs.put(j.get("name").asString(), j));
    assertThat(jobs).containsKeys("board-news-hn", "board-ticker", "board-ghost");
    JsonNode job = jobs.get("board-news-hn");
    assertThat(job.get("mode").asString()).isEqualTo("per-run");
    assertThat(job.get("store").asString()).isEqualTo("redis");
    assertThat(job.get("leaseTtlMs").asLong()).isEqualTo(30_000);
    JsonNode lastRun = job.get("lastRun");
    assertThat(lastRun.get("outcome").asString()).isEqualTo("succeeded");
    assertThat(lastRun.get("fence").asLong()).isPositive();
    assertThat(job.get("lease").get("fence").asLong())
        .as("the store's newest fence")
        .isGreaterThanOrEqualTo(lastRun.get("fence").asLong());
    assertThat(job.get("lease").get("holder").isNull()).as("released after the run").isTrue();
    assertThat(job.get("heldHere").asBoolean()).isFalse();
    assertThat(job.get("consecutiveFailures").asInt()).isZero();
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

  @Test
  void springsOwnRefusals_areProblemsToo_keepingTheirDetailAndHeaders() {
    Answer wrongMethod = http.delete("/api/v1/boards");
    assertThat(wrongMethod.status()).isEqualTo(405);
    assertThat(wrongMethod.header("Content-Type")).startsWith("application/problem+json");
    assertThat(wrongMethod.header("Allow")).contains("GET");
    assertThat(wrongMethod.json().get("type").asString())
        .isEqualTo("https://hotrank.io/problems/method-not-allowed");
    assertThat(wrongMethod.json().get("detail").asString()).contains("DELETE");

    Answer nowhere = http.get("/api/v1/nowhere");
    assertThat(nowhere.status()).isEqualTo(404);
    assertThat(nowhere.json().get("type").asString())
        .isEqualTo("https://hotrank.io/problems/not-found");
    assertThat(nowhere.json().get("title").asString()).isEqualTo("Not found");
    assertThat(nowhere.json().get("instance").asString()).isEqualTo("/api/v1/nowhere");
  }
}
