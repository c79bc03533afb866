package io.hotrank.hotkey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.SecondInstance;
import io.hotrank.support.TestData;
import io.hotrank.support.TestEngines;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Hot keys across two instances on one Redis (or the test cluster) and one database: reads counted
 * on both add up in Redis, the detector (on whichever instance holds its lease) announces the key,
 * and both instances pin it. Runs on the real clock: slices are wall-clock time.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "hot-keys",
      "spring.data.redis.url=${HOTRANK_TEST_REDIS_URL:}",
      "hotrank.hotkeys.rules[0].prefix=item:hk:",
      "hotrank.hotkeys.rules[0].threshold=150",
      "hotrank.hotkeys.rules[0].interval=10s",
      "hotrank.hotkeys.rules[0].duration=2m",
      "hotrank.hotkeys.rules[1].prefix=board:",
      "hotrank.hotkeys.rules[1].threshold=150",
      "hotrank.hotkeys.rules[1].interval=10s",
      "hotrank.hotkeys.rules[1].duration=2m",
      // Local entries expire after a second unless pinned: what survives is what was pinned.
      "hotrank.items.cache.local-ttl=1s"
    })
@Tag("cluster")
class HotKeysAcrossInstancesTest {

  static {
    TestData.empty("hot-keys");
  }

  private static final String PREFIX = "hrtest:" + UUID.randomUUID() + ":";

  /**
   * Each instance reads the hot item this often: 200 in all, over the threshold of 150 per 10 s,
   * which neither instance reaches alone however fast or slow the machine (the window is long so
   * that a slow first request cannot spread the burst past it).
   */
  private static final int READS_EACH = 100;

  /** What the second instance must be told too (it copies only where Redis and the data are). */
  private static final List<String> SAME_ON_BOTH =
      List.of(
          "hotrank.hotkeys.rules[0].prefix",
          "hotrank.hotkeys.rules[0].threshold",
          "hotrank.hotkeys.rules[0].interval",
          "hotrank.hotkeys.rules[0].duration",
          "hotrank.hotkeys.rules[1].prefix",
          "hotrank.hotkeys.rules[1].threshold",
          "hotrank.hotkeys.rules[1].interval",
          "hotrank.hotkeys.rules[1].duration",
          "hotrank.items.cache.local-ttl");

  @DynamicPropertySource
  static void keyPrefix(DynamicPropertyRegistry registry) {
    registry.add("hotrank.redis.key-prefix", () -> PREFIX);
    TestEngines.redisClusterIfNamed(registry);
  }

  @LocalServerPort int port;
  @Autowired Environment environment;

  @Test
  void readsOnTwoInstances_addUp_andTheHotItemIsPinnedOnBoth_whereEditsStillReachIt_boardsCountToo()
      throws Exception {
    TestEngines.exercised("H2");
    HttpJson one = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    for (long id = 1; id <= 2; id++) {
      Answer created =
          one.post(
              "/api/v1/items",
              HttpJson.json(Map.of("biz", "hk", "id", id, "authorId", 1, "title", "item " + id)));
      assertThat(created.status()).as(created.body()).isIn(201, 409);
    }
    List<String> same = new ArrayList<>();
    for (String property : SAME_ON_BOTH) {
      same.add("--" + property + "=" + environment.getProperty(property));
    }
    try (SecondInstance second = SecondInstance.start(environment, same.toArray(String[]::new))) {
      HttpJson two = second.http();
      // Neither instance alone reaches the threshold; together they pass it.
      readConcurrently(List.of(one, two), "/api/v1/items/hk/1", READS_EACH);
      assertThat(one.admin("/api/v1/admin/boards/news-hn/recompute").status()).isEqualTo(200);
      readConcurrently(List.of(one, two), "/api/v1/boards/news-hn", READS_EACH);
      for (int i = 0; i < 5; i++) {
        assertThat(one.get("/api/v1/items/hk/2").status()).isEqualTo(200);
      }
      for (HttpJson instance : List.of(one, two)) {
        await().atMost(Duration.ofSeconds(10)).until(() -> hotKeys(instance).contains("item:hk:1"));
        assertThat(hotKeys(instance)).doesNotContain("item:hk:2");
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> hotKeys(instance).contains("board:news-hn"));
        for (JsonNode key :
            instance.get("/api/v1/admin/hotkeys", instance.adminHeader()).json().get("keys")) {
          assertThat(key.get("rate").asLong()).isGreaterThanOrEqualTo(150);
          assertThat(key.get("rule").asString())
              .isEqualTo(key.get("key").asString().startsWith("item:") ? "item:hk:" : "board:");
        }
      }

      // Past local-ttl, a pinned item is still answered from memory; another is not.
      two.get("/api/v1/items/hk/1");
      two.get("/api/v1/items/hk/2");
      await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> true);
      assertThat(two.get("/api/v1/items/hk/1").header("X-Hotrank-Source")).isEqualTo("local");
      assertThat(two.get("/api/v1/items/hk/2").header("X-Hotrank-Source")).isNotEqualTo("local");

      // An edit on the first instance reaches the pinned copy on the second.
      Answer edited =
          one.put("/api/v1/items/hk/1", "{\"authorId\":1,\"title\":\"item 1, edited\"}");
      assertThat(edited.status()).as(edited.body()).isEqualTo(200);
      await()
          .atMost(Duration.ofSeconds(5))
          .until(
              () ->
                  two.get("/api/v1/items/hk/1")
                      .json()
                      .get("title")
                      .asString()
                      .equals("item 1, edited"));
    }
  }

  private static List<String> hotKeys(HttpJson instance) {
    Answer answer = instance.get("/api/v1/admin/hotkeys", instance.adminHeader());
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    List<String> keys = new ArrayList<>();
    answer.json().get("keys").forEach(k -> keys.add(k.get("key").asString()));
    return keys;
  }

  private static void readConcurrently(List<HttpJson> instances, String path, int each)
      throws Exception {
    try (ExecutorService readers = Executors.newFixedThreadPool(8)) {
      List<Future<Integer>> statuses = new ArrayList<>();
      for (HttpJson instance : instances) {
        for (int i = 0; i < each; i++) {
          statuses.add(readers.submit(() -> instance.get(path).status()));
        }
      }
      for (Future<Integer> status : statuses) {
        assertThat(status.get()).isEqualTo(200);
      }
    }
  }
}
