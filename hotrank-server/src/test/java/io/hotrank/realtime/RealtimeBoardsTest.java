package io.hotrank.realtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hotrank.support.BoardReads;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.TestData;
import io.hotrank.support.TestEngines;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Window boards and leaderboards against an independent model: random event streams with ties,
 * unlikes, repeated likes and deletions go through the HTTP API, the event log and the fold; the
 * served boards and item counters must be what the model computes from the same events. The class
 * runs its own Redis, so it may flush it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "realtime",
      "hotrank.boards[0].name=hour",
      "hotrank.boards[0].biz=rt",
      "hotrank.boards[0].type=window",
      "hotrank.boards[0].bucket=1m",
      "hotrank.boards[0].window=1h",
      "hotrank.boards[0].weights.like=2",
      "hotrank.boards[0].weights.view=1",
      "hotrank.boards[0].weights.comment=3",
      "hotrank.boards[0].size=12",
      "hotrank.boards[1].name=hour-decay",
      "hotrank.boards[1].biz=rt",
      "hotrank.boards[1].type=window",
      "hotrank.boards[1].bucket=1m",
      "hotrank.boards[1].window=1h",
      "hotrank.boards[1].half-life=10m",
      "hotrank.boards[1].weights.like=2",
      "hotrank.boards[1].weights.view=1",
      "hotrank.boards[1].weights.comment=3",
      "hotrank.boards[1].size=12",
      "hotrank.boards[2].name=liked",
      "hotrank.boards[2].biz=rt",
      "hotrank.boards[2].type=leaderboard",
      "hotrank.boards[2].counter=like",
      "hotrank.boards[2].shards=3",
      "hotrank.boards[2].size=12",
      "hotrank.boards[3].name=trimmed",
      "hotrank.boards[3].biz=trim",
      "hotrank.boards[3].type=leaderboard",
      "hotrank.boards[3].counter=like",
      "hotrank.boards[3].shards=1",
      "hotrank.boards[3].size=1"
    })
@Tag("cluster")
class RealtimeBoardsTest {

  static {
    // Before the context starts: an earlier run's event log would be replayed into this run.
    TestData.empty("realtime");
  }

  private static final int ITEMS = 24;
  private static final Map<String, Integer> WEIGHTS = Map.of("like", 2, "view", 1, "comment", 3);
  private static final String PREFIX = "rt-" + UUID.randomUUID() + ":";

  /** The test's own Redis, which it may flush; none on the test cluster, which it must not. */
  private static final RedisProcess REDIS;

  static {
    try {
      REDIS = TestEngines.redisCluster().isPresent() ? null : RedisProcess.start();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    registry.add("hotrank.redis.key-prefix", () -> PREFIX);
    if (REDIS != null) {
      registry.add("spring.data.redis.url", REDIS::url);
    }
    TestEngines.redisClusterIfNamed(registry);
  }

  @AfterAll
  static void stopRedis() throws Exception {
    if (REDIS != null) {
      REDIS.close();
    }
  }

  @LocalServerPort int port;
  @Autowired JdbcTemplate jdbc;
  @Autowired StringRedisTemplate redis;
  HttpJson http;

  @BeforeEach
  void connect() {
    TestEngines.exercised("H2");
    http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
  }

  /** The model: counters and per-user state as the API promises, and each effective event. */
  private static final class Model {
    final Map<Long, Map<String, Long>> counts = new HashMap<>();
    final Set<String> liked = new HashSet<>();
    final Set<Long> deleted = new HashSet<>();
    final Map<Long, Instant> createdAt = new HashMap<>();
    final List<Object[]> effective = new ArrayList<>(); // {itemId, counter, step, at}

    void apply(long item, String type, Long user, Instant at) {
      if (deleted.contains(item)) {
        return;
      }
      String counter = type.equals("unlike") ? "like" : type;
      int step = type.equals("unlike") ? -1 : 1;
      Map<String, Long> c = counts.computeIfAbsent(item, i -> new HashMap<>());
      if (user != null && counter.equals("like")) {
        String key = item + "/" + user;
        if (liked.contains(key) == (step > 0)) {
          return;
        }
        if (step > 0) {
          liked.add(key);
        } else {
          liked.remove(key);
        }
      }
      long before = c.getOrDefault(counter, 0L);
      long after = Math.max(0, before + step);
      if (after == before) {
        return;
      }
      c.put(counter, after);
      effective.add(new Object[] {item, counter, step, at});
    }

    long count(long item, String counter) {
      return counts.getOrDefault(item, Map.of()).getOrDefault(counter, 0L);
    }

    /** Live items by score (desc), then createdAt (desc), then id (desc). */
    List<Long> order(Map<Long, Double> scores) {
      return scores.entrySet().stream()
          .filter(e -> !deleted.contains(e.getKey()) && e.getValue() > 1e-9)
          .sorted(
              Comparator.comparing((Map.Entry<Long, Double> e) -> round(e.getValue()))
                  .reversed()
                  .thenComparing(e -> createdAt.get(e.getKey()), Comparator.reverseOrder())
                  .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
          .map(Map.Entry::getKey)
          .toList();
    }

    Map<Long, Double> windowScores(Instant computedAt, Duration halfLife) {
      long bucketMs = 60_000;
      long current = computedAt.toEpochMilli() / bucketMs;
      Map<Long, Double> scores = new HashMap<>();
      for (Object[] e : effective) {
        Integer weight = WEIGHTS.get((String) e[1]);
        if (weight == null) {
          continue;
        }
        long age = current - ((Instant) e[3]).toEpochMilli() / bucketMs;
        double decay =
            halfLife == null ? 1 : Math.pow(2, -(double) age * bucketMs / halfLife.toMillis());
        scores.merge((Long) e[0], weight * (int) e[2] * decay, Double::sum);
      }
      return scores;
    }

    Map<Long, Double> likes() {
      Map<Long, Double> scores = new HashMap<>();
      counts.forEach((id, c) -> scores.put(id, (double) c.getOrDefault("like", 0L)));
      return scores;
    }
  }

  private static double round(double v) {
    return Math.round(v * 1e6) / 1e6;
  }

  private void createItem(String biz, long id, Instant createdAt) {
    Answer created =
        http.post(
            "/api/v1/items",
            HttpJson.json(
                Map.of(
                    "biz",
                    biz,
                    "id",
                    id,
                    "authorId",
                    7,
                    "title",
                    "item " + id,
                    "createdAt",
                    createdAt.toString())));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
  }

  private void post(List<Map<String, Object>> events) {
    Answer posted = http.post("/api/v1/events", HttpJson.json(Map.of("events", events)));
    assertThat(posted.status()).as(posted.body()).isEqualTo(202);
  }

  private void foldAndPublish(String... boards) {
    assertThat(http.admin("/api/v1/admin/events/fold").status()).isEqualTo(200);
    for (String board : boards) {
      Answer published = http.admin("/api/v1/admin/boards/" + board + "/recompute");
      assertThat(published.status()).as(published.body()).isEqualTo(200);
    }
  }

  private JsonNode board(String name) {
    Answer answer =
        http.get("/api/v1/boards/" + name + "?limit=" + (name.equals("trimmed") ? 1 : 12));
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer.json();
  }

  @Test
  @Order(1)
  void windowBoardsLeaderboardAndCounters_matchTheModel() {
    Model model = new Model();
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    // Ties of createdAt: pairs of items share one, so the id decides between them.
    for (long id = 1; id <= ITEMS; id++) {
      Instant created = now.minus(Duration.ofHours(30 - (id + 1) / 2));
      model.createdAt.put(id, created);
      createItem("rt", id, created);
    }
    Random random = new Random(11);
    String[] types = {"like", "like", "unlike", "view", "view", "comment"};
    for (int round = 0; round < 3; round++) {
      if (round == 2) {
        for (long id : List.of(4L, 9L, 17L)) {
          assertThat(http.delete("/api/v1/items/rt/" + id).status()).isEqualTo(204);
          model.deleted.add(id);
        }
      }
      for (int batch = 0; batch < 8; batch++) {
        List<Map<String, Object>> events = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
          long item = 1 + random.nextInt(ITEMS);
          if (model.deleted.contains(item)) {
            continue; // refused whole by the API; tested elsewhere
          }
          String type = types[random.nextInt(types.length)];
          Long user =
              type.contains("like") && random.nextInt(5) > 0 ? 1L + random.nextInt(4) : null;
          Instant at = now.minusSeconds(random.nextInt(20 * 60));
          Map<String, Object> e = new LinkedHashMap<>();
          e.put("biz", "rt");
          e.put("itemId", item);
          e.put("type", type);
          if (user != null) {
            e.put("userId", user);
          }
          e.put("at", at.toString());
          events.add(e);
          model.apply(item, type, user, at);
        }
        post(events);
      }
    }
    foldAndPublish("hour", "hour-decay", "liked");

    for (long id = 1; id <= ITEMS; id++) {
      if (model.deleted.contains(id)) {
        continue;
      }
      JsonNode counts = http.get("/api/v1/items/rt/" + id).json().get("counts");
      for (String counter : List.of("like", "view", "comment")) {
        assertThat(counts.get(counter).asLong())
            .as("item %d %s", id, counter)
            .isEqualTo(model.count(id, counter));
      }
    }

    JsonNode hour = board("hour");
    Instant computedAt = Instant.parse(hour.get("computedAt").asString());
    List<Long> expected = model.order(model.windowScores(computedAt, null));
    assertThat(BoardReads.ids(hour))
        .as("served %s, model %s", hour, model.windowScores(computedAt, null))
        .isEqualTo(expected.subList(0, Math.min(12, expected.size())));
    Map<Long, Double> uniform = model.windowScores(computedAt, null);
    hour.get("items")
        .forEach(
            e ->
                assertThat(e.get("score").asDouble())
                    .isCloseTo(uniform.get(e.get("itemId").asLong()), within(1e-6)));

    JsonNode decayed = board("hour-decay");
    Map<Long, Double> decayScores =
        model.windowScores(
            Instant.parse(decayed.get("computedAt").asString()), Duration.ofMinutes(10));
    List<Long> decayOrder = model.order(decayScores);
    assertThat(BoardReads.ids(decayed)).hasSize(Math.min(12, decayOrder.size()));
    decayed
        .get("items")
        .forEach(
            e ->
                assertThat(e.get("score").asDouble())
                    .isCloseTo(decayScores.get(e.get("itemId").asLong()), within(1e-5)));
    // The set of the top 12, unless the 12th and 13th are too close to call in floating point.
    if (decayOrder.size() <= 12
        || decayScores.get(decayOrder.get(11)) - decayScores.get(decayOrder.get(12)) > 1e-5) {
      assertThat(new HashSet<>(BoardReads.ids(decayed)))
          .isEqualTo(new HashSet<>(decayOrder.subList(0, Math.min(12, decayOrder.size()))));
    }

    JsonNode liked = board("liked");
    List<Long> likeOrder = model.order(model.likes());
    assertThat(BoardReads.ids(liked))
        .isEqualTo(likeOrder.subList(0, Math.min(12, likeOrder.size())));
    liked
        .get("items")
        .forEach(
            e -> {
              long id = e.get("itemId").asLong();
              assertThat(e.get("score").asDouble()).isEqualTo(model.count(id, "like"));
              assertThat(e.get("title").asString()).isEqualTo("item " + id);
              assertThat(e.get("counts").get("like").asLong()).isEqualTo(model.count(id, "like"));
            });
  }

  /**
   * A shard keeps twice the board's size: with size 1, the third item is trimmed out; liked past
   * the others it re-enters with its true count, not with the likes since it was trimmed.
   */
  @Test
  void anItemTrimmedOutOfALeaderboard_reentersWithItsTrueCount() {
    Instant created = Instant.now().minus(Duration.ofHours(1));
    for (long id = 1; id <= 3; id++) {
      createItem("trim", id, created);
    }
    List<Map<String, Object>> events = new ArrayList<>();
    addLikes(events, 1, 5);
    addLikes(events, 2, 4);
    addLikes(events, 3, 3);
    post(events);
    foldAndPublish("trimmed");
    assertThat(BoardReads.ids(board("trimmed"))).containsExactly(1L);
    assertThat(redis.opsForZSet().zCard(PREFIX + "{lbt:trimmed:0}:z")).isEqualTo(2);

    List<Map<String, Object>> more = new ArrayList<>();
    addLikes(more, 3, 3);
    post(more);
    foldAndPublish("trimmed");
    JsonNode top = board("trimmed");
    assertThat(BoardReads.ids(top)).containsExactly(3L);
    assertThat(top.get("items").get(0).get("score").asDouble()).isEqualTo(6.0);
  }

  private static void addLikes(List<Map<String, Object>> events, long item, int n) {
    for (int k = 0; k < n; k++) {
      events.add(Map.of("biz", "trim", "itemId", item, "type", "like"));
    }
  }

  /**
   * After {@code FLUSHALL}, the folder notices the boards' data is gone: the leaderboard is rebuilt
   * from the database's counters and the window board replays its window from the event log, with
   * no new event needed; until then the last published board is still served. Runs after the model
   * test, on its items and events.
   */
  @Test
  @Order(2)
  void afterAFlush_boardsAreRestoredFromTheDatabaseAndTheLog() throws Exception {
    assumeTrue(
        REDIS != null, "FLUSHALL runs on the test's own Redis only, not on the test cluster");
    List<Long> hourBefore = BoardReads.ids(board("hour"));
    List<Long> likedBefore = BoardReads.ids(board("liked"));
    JsonNode scoresBefore = board("hour").get("items");
    assertThat(REDIS.command("FLUSHALL")).contains("OK");
    // Still served from the local snapshot meanwhile.
    assertThat(BoardReads.ids(board("hour"))).isEqualTo(hourBefore);
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              assertThat(redis.hasKey(PREFIX + "{w:hour}:applied")).isTrue();
              assertThat(redis.hasKey(PREFIX + "{lbt:liked:0}:applied")).isTrue();
            });
    foldAndPublish("hour", "liked");
    assertThat(BoardReads.ids(board("liked"))).isEqualTo(likedBefore);
    assertThat(BoardReads.ids(board("hour"))).isEqualTo(hourBefore);
    JsonNode scoresAfter = board("hour").get("items");
    for (int i = 0; i < scoresBefore.size(); i++) {
      assertThat(scoresAfter.get(i).get("score").asDouble())
          .isCloseTo(scoresBefore.get(i).get("score").asDouble(), within(1e-6));
    }
  }
}
