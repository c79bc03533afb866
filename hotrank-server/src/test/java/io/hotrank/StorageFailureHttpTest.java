package io.hotrank;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.TestData;
import io.hotrank.support.TestEngines;
import java.sql.Connection;
import java.util.UUID;
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
 * Storage failures answer 503 problems with Retry-After, never Spring's bare 500. Regression: with
 * the connection pool exhausted, a failed transaction start ({@code
 * CannotCreateTransactionException}, not a {@code DataAccessException}) came back as a bare 500.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "pool",
      // Flyway needs two connections at startup; the test takes both.
      "spring.datasource.hikari.maximum-pool-size=2",
      "spring.datasource.hikari.connection-timeout=250",
      // Nothing in the background may hold a connection when the test takes it.
      "hotrank.board.scheduling=false",
      "hotrank.board.check-interval=1h"
    })
@ActiveProfiles("test")
@TestPropertySource(properties = "spring.data.redis.url=${HOTRANK_TEST_REDIS_URL:}")
class StorageFailureHttpTest {

  static {
    // Before the context starts: an earlier run's event log would be replayed into this run.
    TestData.empty("pool");
  }

  @DynamicPropertySource
  static void keyPrefix(DynamicPropertyRegistry registry) {
    registry.add("hotrank.redis.key-prefix", () -> "hrtest:" + UUID.randomUUID() + ":");
  }

  @LocalServerPort int port;
  @Autowired DataSource dataSource;

  @Test
  void exhaustedConnectionPool_answers503ProblemsWithRetryAfter_thenRecovers() throws Exception {
    TestEngines.exercised("H2");
    HttpJson http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    long id = Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000_000L) + 1;
    String item = "{\"biz\":\"pool\",\"id\":" + id + ",\"authorId\":1,\"title\":\"t\"}";
    String like = "{\"events\":[{\"biz\":\"pool\",\"itemId\":" + id + ",\"type\":\"like\"}]}";
    assertThat(http.post("/api/v1/items", item).status()).isEqualTo(201);

    try (Connection first = dataSource.getConnection();
        Connection second = dataSource.getConnection()) {
      assertThat(first.isValid(1) && second.isValid(1)).isTrue();
      for (Answer answer :
          new Answer[] {
            http.post("/api/v1/events", like),
            http.post("/api/v1/items", item.replace("\"id\":" + id, "\"id\":" + (id + 1))),
            http.get("/api/v1/items/pool/" + id)
          }) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        assertThat(answer.header("Retry-After")).isEqualTo("5");
        assertThat(answer.json().get("type").asString())
            .isEqualTo("https://hotrank.io/problems/storage-unavailable");
        assertThat(answer.json().get("detail").asString()).doesNotContain("Hikari");
      }
    }

    assertThat(http.post("/api/v1/events", like).status()).isEqualTo(202);
    assertThat(http.admin("/api/v1/admin/events/fold").status()).isEqualTo(200);
    assertThat(http.get("/api/v1/items/pool/" + id).json().get("counts").get("like").asLong())
        .isEqualTo(1);
  }
}
