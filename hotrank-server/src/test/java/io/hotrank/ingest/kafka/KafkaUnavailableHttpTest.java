package io.hotrank.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.TestData;
import io.hotrank.support.TestEngines;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * With the Kafka source and no broker to be reached: a batch is answered 503 {@code
 * ingest-overloaded} with Retry-After once the send timeout has passed (the default, 5 s), and the
 * report and a manual fold answer 503 {@code ingest-unavailable}; the service itself starts and
 * serves everything else.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "kafka-unavailable",
      "hotrank.ingest.source=kafka",
      "hotrank.board.scheduling=false"
    })
@ActiveProfiles("test")
@TestPropertySource(properties = "spring.data.redis.url=${HOTRANK_TEST_REDIS_URL:}")
class KafkaUnavailableHttpTest {

  static {
    TestData.empty("kafka-unavailable");
  }

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    registry.add("hotrank.redis.key-prefix", () -> "hrtest:" + UUID.randomUUID() + ":");
    registry.add("spring.kafka.bootstrap-servers", () -> "127.0.0.1:" + closedPort());
  }

  /** A port nothing listens on: taken from the system, then released. */
  private static int closedPort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @LocalServerPort int port;

  @Test
  void withNoBrokerToReach_batchesGet503WithRetryAfter_andTheReportSaysWhy() {
    TestEngines.exercised("H2");
    HttpJson http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    Answer created =
        http.post(
            "/api/v1/items",
            HttpJson.json(Map.of("biz", "article", "id", 1, "authorId", 7, "title", "t")));
    assertThat(created.status()).as(created.body()).isEqualTo(201);

    Answer refused =
        http.post(
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"article\",\"itemId\":1,\"type\":\"like\"}]}");
    assertThat(refused.status()).as(refused.body()).isEqualTo(503);
    assertThat(refused.json().get("type").asString()).endsWith("ingest-overloaded");
    assertThat(refused.header("Retry-After")).isNotBlank();

    Answer report = http.get("/api/v1/admin/ingest", http.adminHeader());
    assertThat(report.status()).as(report.body()).isEqualTo(503);
    assertThat(report.json().get("type").asString()).endsWith("ingest-unavailable");
    assertThat(report.header("Retry-After")).isNotBlank();

    Answer fold = http.admin("/api/v1/admin/events/fold");
    assertThat(fold.status()).as(fold.body()).isEqualTo(503);
    assertThat(fold.header("Retry-After")).isNotBlank();

    assertThat(http.get("/api/v1/items/article/1").status()).isEqualTo(200);
  }
}
