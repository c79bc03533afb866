package io.hotrank.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.item.ItemCacheWrites;
import io.hotrank.item.LiveItems;
import io.hotrank.support.HttpJson.Answer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
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

/**
 * What the HTTP-level tests share: one service on a real Redis and a database engine chosen by the
 * subclass, a settable clock, a fresh set of item tables before each test, and helpers that talk to
 * the API as a client would. {@code io.hotrank.HotrankApiContract} holds the tests whose outcome
 * depends on the engine and runs on each; {@code io.hotrank.HttpApiTest} holds the rest and runs
 * once, on H2.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@Import(TestClockConfiguration.class)
// Inlined, so the embedded default sees it: a blank value means "start the embedded binary".
@TestPropertySource(properties = "spring.data.redis.url=${HOTRANK_TEST_REDIS_URL:}")
public abstract class ApiTestSupport {
  /** The fixed "now" of these tests; whole seconds keep the Reddit arithmetic exact. */
  protected static final Instant NOW = TestClockConfiguration.START;

  static {
    // The H2 contexts keep their database under target/test-data/h2. Left from an earlier run, its
    // snapshots would be preloaded and written back to Redis by the version check, racing the
    // tests that start from an empty board. Class initialization runs before any context starts.
    try {
      org.springframework.util.FileSystemUtils.deleteRecursively(
          java.nio.file.Path.of("target/test-data/h2"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Each Spring context's Redis keys live under a prefix of its own: the shared Redis is never
   * flushed, and the contexts of one run (H2, MariaDB, PostgreSQL, and those with boards of their
   * own) would otherwise fold into each other's realtime boards and read each other's fold notices.
   * The method runs once per context it creates.
   */
  @DynamicPropertySource
  static void common(DynamicPropertyRegistry registry) {
    String prefix = "hrtest:" + UUID.randomUUID() + ":";
    registry.add("hotrank.redis.key-prefix", () -> prefix);
    TestEngines.redisClusterIfNamed(registry);
  }

  @LocalServerPort protected int port;
  @Autowired protected JdbcTemplate jdbc;
  @Autowired protected MutableClock clock;
  @Autowired protected Environment environment;
  @Autowired protected StringRedisTemplate redis;
  @Autowired protected LiveItems liveItems;
  @Autowired protected ItemCacheWrites itemCacheWrites;
  protected HttpJson http;

  /** The engine name for the end-of-run report. */
  protected abstract String engine();

  @BeforeEach
  protected void resetData() {
    TestEngines.exercised(engine());
    clock.set(NOW);
    http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    for (String table :
        List.of(
            "hr_user_action",
            "hr_item_counter",
            "hr_item",
            "hr_id_sequence",
            "hr_follow",
            "hr_follow_count",
            "hr_item_tag",
            "hr_item_outbox")) {
      jdbc.update("DELETE FROM " + table);
    }
    liveItems.forgetAll();
    // The tables were emptied behind the caches' back, so versions start again at 1: drop the
    // cached items, which hold versions the new rows will not reach for a while.
    Set<String> cached = redis.keys(keyPrefix() + "i[mc]:*");
    // Follow counts, feeds' inboxes and outboxes, cached follows (all under "f").
    Set<String> counts = redis.keys(keyPrefix() + "f*");
    if (counts != null) {
      cached.addAll(counts);
    }
    if (cached != null && !cached.isEmpty()) {
      cached.forEach(redis::delete);
    }
    itemCacheWrites.forgetLocal();
  }

  /** This context's Redis key prefix. */
  protected String keyPrefix() {
    return environment.getRequiredProperty("hotrank.redis.key-prefix");
  }

  protected Answer createItem(String biz, Long id, String title, long authorId, Instant createdAt) {
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

  protected void postEvents(String... events) {
    Answer answer = http.post("/api/v1/events", "{\"events\":[" + String.join(",", events) + "]}");
    assertThat(answer.status()).as(answer.body()).isEqualTo(202);
    fold();
  }

  /** Folds every accepted event into the counters now (the folder would within a second). */
  protected void fold() {
    Answer folded = http.admin("/api/v1/admin/events/fold");
    assertThat(folded.status()).as(folded.body()).isEqualTo(200);
  }

  protected List<Long> boardIds(String board) {
    List<Long> ids = new ArrayList<>();
    http.get("/api/v1/boards/" + board + "?limit=8")
        .json()
        .get("items")
        .forEach(e -> ids.add(e.get("itemId").asLong()));
    return ids;
  }
}
