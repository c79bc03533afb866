package io.hotrank.limit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.TestData;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * With its Redis stopped, an instance of two enforces half of each quota in memory, says so in its
 * metrics, and goes back to the shared limit when Redis does. Uses a Redis process of its own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "rate-limits-redis-down",
      "hotrank.limits.enabled=true",
      "hotrank.limits.ingest-quota=20",
      "hotrank.limits.ingest-window=3600s",
      "hotrank.limits.instances=2",
      "hotrank.limits.when-redis-down=share"
    })
class RateLimitRedisDownTest {

  static {
    TestData.empty("rate-limits-redis-down");
  }

  private static final RedisProcess REDIS = RedisProcess.startForClass();

  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    registry.add("spring.data.redis.url", REDIS::url);
    registry.add("hotrank.redis.key-prefix", () -> "hrtest:");
  }

  @AfterAll
  static void stopRedis() throws Exception {
    REDIS.close();
  }

  @LocalServerPort int port;
  @Autowired MeterRegistry meters;

  @Test
  void redisDown_thisInstanceAdmitsItsShare_andSaysSo() throws Exception {
    HttpJson http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    Answer shared = http.post("/api/v1/events", "{}", "X-Api-Key", "k");
    assertThat(shared.status()).isEqualTo(400);
    assertThat(shared.header("RateLimit")).startsWith("\"ingest\";r=19;");
    // With no keys listed, no key names a client: another key is the same address.
    Answer other = http.post("/api/v1/events", "{}", "X-Api-Key", "another");
    assertThat(other.header("RateLimit")).startsWith("\"ingest\";r=18;");
    assertThat(meters.get("hotrank.limits.local").gauge().value()).isZero();

    REDIS.stop();
    List<Answer> answers = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      answers.add(http.post("/api/v1/events", "{}", "X-Api-Key", "k"));
    }
    // Half of 20, counted afresh here: what the shared count held is out of reach.
    assertThat(answers.stream().filter(a -> a.status() != 429).toList())
        .hasSize(10)
        .allSatisfy(a -> assertThat(a.status()).isEqualTo(400));
    for (Answer a : answers) {
      // The policy this instance enforces alone: its share.
      assertThat(a.header("RateLimit-Policy")).isEqualTo("\"ingest\";q=10;w=3600");
      assertThat(a.header("RateLimit")).startsWith("\"ingest\";r=");
    }
    assertThat(answers.stream().filter(a -> a.status() == 429).toList())
        .hasSize(20)
        .allSatisfy(a -> assertThat(a.header("Retry-After")).isNotNull());
    assertThat(meters.get("hotrank.limits.local").gauge().value()).isEqualTo(1.0);
    assertThat(
            meters
                .get("hotrank.limits.decisions")
                .tags("group", "ingest", "decided", "local", "outcome", "allowed")
                .counter()
                .count())
        .isEqualTo(10);
  }
}
