package io.hotrank.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.TestData;
import io.hotrank.support.TestEngines;
import java.sql.Connection;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * When the database cannot take more, a batch is refused at once with 503 {@code ingest-overloaded}
 * and Retry-After rather than left waiting; batches whose append failed get 503 {@code
 * storage-unavailable}; none of them is applied.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "overload",
      "spring.datasource.hikari.maximum-pool-size=2",
      "spring.datasource.hikari.connection-timeout=1000",
      "hotrank.board.scheduling=false",
      "hotrank.board.check-interval=1h",
      "hotrank.ingest.folding=false",
      "hotrank.ingest.writers=1",
      "hotrank.ingest.queue-delay=100ms"
    })
@ActiveProfiles("test")
@TestPropertySource(properties = "spring.data.redis.url=${HOTRANK_TEST_REDIS_URL:}")
class IngestOverloadHttpTest {

  static {
    // Before the context starts: an earlier run's event log would be replayed into this run.
    TestData.empty("overload");
  }

  @DynamicPropertySource
  static void keyPrefix(DynamicPropertyRegistry registry) {
    registry.add("hotrank.redis.key-prefix", () -> "hrtest:" + UUID.randomUUID() + ":");
  }

  @LocalServerPort int port;
  @Autowired DataSource dataSource;
  @Autowired EventAppender appender;

  @Test
  void aStalledLog_refusesTheNextBatchAtOnce_andAppliesNoneOfThem() throws Exception {
    TestEngines.exercised("H2");
    HttpJson http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    long id = Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000_000L) + 1;
    String item = "{\"biz\":\"load\",\"id\":" + id + ",\"authorId\":1,\"title\":\"t\"}";
    String like = "{\"events\":[{\"biz\":\"load\",\"itemId\":" + id + ",\"type\":\"like\"}]}";
    assertThat(http.post("/api/v1/items", item).status()).isEqualTo(201);
    // Cache the item's existence, so that the batches below need no connection to be validated.
    assertThat(http.post("/api/v1/events", like).status()).isEqualTo(202);

    Answer first;
    Answer second;
    Answer third;
    try (Connection a = dataSource.getConnection();
        Connection b = dataSource.getConnection()) {
      assertThat(a.isValid(1) && b.isValid(1)).isTrue();
      CompletableFuture<Answer> writing =
          CompletableFuture.supplyAsync(() -> http.post("/api/v1/events", like));
      // The one writer has taken the first batch and waits for a connection (1 s).
      await().atMost(Duration.ofSeconds(5)).until(() -> appender.writingEvents() == 1);
      CompletableFuture<Answer> queued =
          CompletableFuture.supplyAsync(() -> http.post("/api/v1/events", like));
      // The second batch waits in the queue behind the stalled writer; once it has waited past
      // the queue delay (100 ms), the third is refused at once.
      await().atMost(Duration.ofSeconds(5)).until(() -> appender.queuedEvents() == 1);
      await()
          .pollDelay(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(5))
          .until(() -> appender.queuedEvents() == 1);
      third = http.post("/api/v1/events", like);
      first = writing.get(10, TimeUnit.SECONDS);
      second = queued.get(10, TimeUnit.SECONDS);
    }
    assertThat(third.status()).as(third.body()).isEqualTo(503);
    assertThat(third.header("Retry-After")).isEqualTo("1");
    assertThat(third.header("Content-Type")).startsWith("application/problem+json");
    assertThat(third.json().get("type").asString())
        .isEqualTo("https://hotrank.io/problems/ingest-overloaded");
    for (Answer failed : new Answer[] {first, second}) {
      assertThat(failed.status()).as(failed.body()).isEqualTo(503);
      assertThat(failed.header("Retry-After")).isNotNull();
      assertThat(failed.json().get("type").asString())
          .isEqualTo("https://hotrank.io/problems/storage-unavailable");
    }

    assertThat(http.post("/api/v1/events", like).status()).isEqualTo(202);
    assertThat(http.admin("/api/v1/admin/events/fold").status()).isEqualTo(200);
    assertThat(http.get("/api/v1/items/load/" + id).json().get("counts").get("like").asLong())
        .isEqualTo(2);
  }
}
