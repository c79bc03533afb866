package io.hotrank.realtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.SecondInstance;
import io.hotrank.support.TestData;
import io.hotrank.support.TestEngines;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * A window board's snapshot across two instances: built once per bucket whoever builds, and swapped
 * in whole, so that a reader never sees a part of it. Buckets of one second, so that a few seconds
 * hold several builds.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "window-snapshot",
      "spring.data.redis.url=${HOTRANK_TEST_REDIS_URL:}",
      "hotrank.boards[0].name=seconds",
      "hotrank.boards[0].biz=ws",
      "hotrank.boards[0].type=window",
      "hotrank.boards[0].bucket=1s",
      "hotrank.boards[0].window=30s",
      "hotrank.boards[0].size=20"
    })
@Tag("cluster")
class WindowSnapshotTest {

  static {
    // Before the context starts: an earlier run's event log would be replayed into this run.
    TestData.empty("window-snapshot");
  }

  private static final String PREFIX = "hrtest:" + UUID.randomUUID() + ":";
  private static final int ITEMS = 30;

  @DynamicPropertySource
  static void keyPrefix(DynamicPropertyRegistry registry) {
    registry.add("hotrank.redis.key-prefix", () -> PREFIX);
    TestEngines.redisClusterIfNamed(registry);
  }

  @LocalServerPort int port;
  @Autowired Environment environment;
  @Autowired StringRedisTemplate redis;

  @Test
  void theSnapshot_isBuiltOncePerBucketAcrossTwoInstances_andReadersSeeItWhole() throws Exception {
    TestEngines.exercised("H2");
    HttpJson http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    for (long id = 1; id <= ITEMS; id++) {
      Answer created =
          http.post(
              "/api/v1/items",
              HttpJson.json(Map.of("biz", "ws", "id", id, "authorId", 1, "title", "i" + id)));
      assertThat(created.status()).as(created.body()).isIn(201, 409);
    }
    // Item i gets i likes, three seconds ago: every build from now on merges the same events.
    List<Map<String, Object>> events = new ArrayList<>();
    String at = Instant.now().minusSeconds(3).toString();
    for (long id = 1; id <= ITEMS; id++) {
      for (int k = 0; k < id; k++) {
        events.add(Map.of("biz", "ws", "itemId", id, "type", "like", "at", at));
      }
    }
    assertThat(http.post("/api/v1/events", HttpJson.json(Map.of("events", events))).status())
        .isEqualTo(202);
    assertThat(http.admin("/api/v1/admin/events/fold").status()).isEqualTo(200);
    String snap = PREFIX + "{w:seconds}:snap";
    String built = PREFIX + "{w:seconds}:built";
    // Twice the size is kept: the 30 items are all in.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> Long.valueOf(ITEMS).equals(redis.opsForZSet().zCard(snap)));

    try (SecondInstance second =
        SecondInstance.start(
            environment,
            "--hotrank.boards[0].name=seconds",
            "--hotrank.boards[0].biz=ws",
            "--hotrank.boards[0].type=window",
            "--hotrank.boards[0].bucket=1s",
            "--hotrank.boards[0].window=30s",
            "--hotrank.boards[0].size=20")) {
      HttpJson other = second.http();
      long builtBefore = Long.parseLong(redis.opsForValue().get(built));
      double buildsBefore = builds(http) + builds(other);

      AtomicBoolean reading = new AtomicBoolean(true);
      ConcurrentLinkedQueue<String> partial = new ConcurrentLinkedQueue<>();
      List<Thread> readers = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        readers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      while (reading.get()) {
                        Set<TypedTuple<String>> read =
                            redis.opsForZSet().rangeWithScores(snap, 0, -1);
                        if (read == null || read.size() != ITEMS) {
                          partial.add("size " + (read == null ? null : read.size()));
                          continue;
                        }
                        for (TypedTuple<String> t : read) {
                          if (t.getScore() == null
                              || t.getScore() != Double.parseDouble(t.getValue())) {
                            partial.add(t.getValue() + "=" + t.getScore());
                          }
                        }
                      }
                    }));
      }
      // Reads go on while the two instances build five more snapshots between them.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Long.parseLong(redis.opsForValue().get(built)) - builtBefore >= 5);
      reading.set(false);
      for (Thread reader : readers) {
        reader.join(10_000);
      }
      double builds = builds(http) + builds(other) - buildsBefore;
      long advanced = Long.parseLong(redis.opsForValue().get(built)) - builtBefore;

      assertThat(partial).as("reads of a part of a snapshot").isEmpty();
      // Each build moves the built bucket on by at least one; two builds of one bucket would make
      // more builds than buckets. Both instances ran the job every second.
      assertThat(advanced).isGreaterThanOrEqualTo(5);
      assertThat(builds).isLessThanOrEqualTo(advanced).isGreaterThanOrEqualTo(advanced - 2);
    }
  }

  /** Snapshot builds counted by an instance's metrics. */
  private static double builds(HttpJson http) {
    Answer metric =
        http.get(
            "/actuator/metrics/hotrank.realtime.window.builds?tag=board:seconds",
            http.adminHeader());
    if (metric.status() == 404) {
      return 0; // none yet
    }
    assertThat(metric.status()).as(metric.body()).isEqualTo(200);
    for (var m : metric.json().get("measurements")) {
      if (m.get("statistic").asString().equals("COUNT")) {
        return m.get("value").asDouble();
      }
    }
    throw new AssertionError("no COUNT in " + metric.body());
  }
}
