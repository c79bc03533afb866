package io.hotrank.limit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.TestData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * Who a client is, over HTTP on the shared Redis: with no API keys listed (the default), a key
 * names no client, so one sending a new key with each request is limited as its address, in every
 * route group. Behind a trusted proxy (Tomcat's RemoteIpValve, {@code
 * server.forward-headers-strategy=native}, whose default internal proxies include loopback), the
 * address is the one in {@code X-Forwarded-For}. Board reads the fast path answers and guesses at
 * the admin token on {@code /actuator/metrics} are counted like the rest.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "rate-limit-client",
      "spring.data.redis.url=${HOTRANK_TEST_REDIS_URL:}",
      "hotrank.limits.enabled=true",
      // Nothing refills while the test runs.
      "hotrank.limits.ingest-quota=3",
      "hotrank.limits.ingest-window=3600s",
      "hotrank.limits.reads-quota=3",
      "hotrank.limits.reads-window=3600s",
      "hotrank.limits.admin-quota=3",
      "hotrank.limits.admin-window=3600s",
      // What is counted must not depend on Redis's speed on a loaded machine.
      "hotrank.limits.redis-timeout=5s",
      "hotrank.redis.read-timeout=5s",
      "server.forward-headers-strategy=native"
    })
class RateLimitClientTest {

  static {
    TestData.empty("rate-limit-client");
  }

  @DynamicPropertySource
  static void keyPrefix(DynamicPropertyRegistry registry) {
    registry.add("hotrank.redis.key-prefix", () -> "hrtest:" + UUID.randomUUID() + ":");
  }

  @LocalServerPort int port;

  private HttpJson http() {
    return new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
  }

  @Test
  void aNewApiKeyWithEachRequest_isOneClient_inEveryRouteGroup() {
    HttpJson http = http();
    assertRotatingKeysLimited(
        "ingest", key -> http.post("/api/v1/events", "{}", "X-Api-Key", key), 400);
    assertRotatingKeysLimited("reads", key -> http.get("/api/v1/boards", "X-Api-Key", key), 200);
    assertRotatingKeysLimited(
        "admin", key -> http.get("/api/v1/admin/jobs", "X-Api-Key", key), 401);
  }

  private static void assertRotatingKeysLimited(
      String group, Function<String, Answer> request, int admittedStatus) {
    List<Answer> answers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      answers.add(request.apply("rotated-" + group + "-" + i + "-" + UUID.randomUUID()));
    }
    assertThat(answers.subList(0, 3))
        .as(group)
        .allSatisfy(a -> assertThat(a.status()).isEqualTo(admittedStatus));
    assertThat(answers.get(0).header("RateLimit")).startsWith("\"" + group + "\";r=2;");
    assertThat(answers.get(2).header("RateLimit")).startsWith("\"" + group + "\";r=0;");
    assertThat(answers.subList(3, 5))
        .as(group + ": a new key is no new client")
        .allSatisfy(a -> assertThat(a.status()).isEqualTo(429));
  }

  @Test
  void boardReadsOnTheFastPath_andMetricsGuesses_areCountedToo() {
    HttpJson http = http();
    // Each part as a client of its own (a trusted proxy's X-Forwarded-For, as in the test below).
    // The board "ticker" publishes every second; once it has, the fast path answers its reads.
    int[] poll = {0};
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                http.get("/api/v1/boards/ticker", "X-Forwarded-For", "198.18.0." + ++poll[0])
                        .status()
                    == 200);
    List<Answer> reads = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      reads.add(http.get("/api/v1/boards/ticker", "X-Forwarded-For", "203.0.113.20"));
    }
    assertThat(reads.subList(0, 3))
        .allSatisfy(a -> assertThat(a.status()).as(a.body()).isEqualTo(200))
        .allSatisfy(a -> assertThat(a.header("X-Hotrank-Source")).isEqualTo("local"))
        .allSatisfy(a -> assertThat(a.header("RateLimit")).startsWith("\"reads\";"));
    assertThat(reads.subList(3, 5)).allSatisfy(a -> assertThat(a.status()).isEqualTo(429));

    List<Answer> guesses = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      guesses.add(
          http.get(
              "/actuator/metrics",
              "Authorization",
              "Bearer guess-" + i,
              "X-Forwarded-For",
              "203.0.113.21"));
    }
    assertThat(guesses.subList(0, 3)).allSatisfy(a -> assertThat(a.status()).isEqualTo(401));
    assertThat(guesses.get(0).header("RateLimit")).startsWith("\"admin\";r=2;");
    assertThat(guesses.subList(3, 5)).allSatisfy(a -> assertThat(a.status()).isEqualTo(429));
  }

  @Test
  void fromATrustedProxy_xForwardedForNamesTheClient() {
    HttpJson http = http();
    String client = "203.0.113.7";
    for (int i = 0; i < 3; i++) {
      Answer admitted = http.post("/api/v1/events", "{}", "X-Forwarded-For", client);
      assertThat(admitted.status()).isEqualTo(400);
      assertThat(admitted.header("RateLimit")).startsWith("\"ingest\";r=" + (2 - i) + ";");
    }
    assertThat(http.post("/api/v1/events", "{}", "X-Forwarded-For", client).status())
        .isEqualTo(429);
    // Another address behind the same proxy is another client.
    Answer other = http.post("/api/v1/events", "{}", "X-Forwarded-For", "198.51.100.9");
    assertThat(other.status()).isEqualTo(400);
    assertThat(other.header("RateLimit")).startsWith("\"ingest\";r=2;");
  }
}
