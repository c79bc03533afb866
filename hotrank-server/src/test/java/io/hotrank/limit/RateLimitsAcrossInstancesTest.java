package io.hotrank.limit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.SecondInstance;
import io.hotrank.support.TestData;
import io.hotrank.support.TestEngines;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
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

/**
 * Rate limits over HTTP on two instances sharing one Redis (or the test cluster): a client's
 * requests to either instance count against one quota, exactly; every limited answer carries the
 * draft headers, and one over the limit is a 429 problem with Retry-After.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "rate-limits",
      "spring.data.redis.url=${HOTRANK_TEST_REDIS_URL:}",
      "hotrank.limits.enabled=true",
      // One request frees up every 90 s: nothing refills while the test runs.
      "hotrank.limits.ingest-quota=40",
      "hotrank.limits.ingest-window=3600s",
      "hotrank.limits.admin-quota=3",
      "hotrank.limits.admin-window=3600s",
      "hotrank.limits.api-keys=known-key,other-key",
      // What is counted must not depend on Redis's speed on a loaded machine: a decision past the
      // timeout would be taken locally, as it should, and would not be shared.
      "hotrank.limits.redis-timeout=5s",
      "hotrank.redis.read-timeout=5s"
    })
@Tag("cluster")
class RateLimitsAcrossInstancesTest {

  static {
    TestData.empty("rate-limits");
  }

  private static final String PREFIX = "hrtest:" + UUID.randomUUID() + ":";
  private static final List<String> SAME_ON_BOTH =
      List.of(
          "hotrank.limits.enabled",
          "hotrank.limits.ingest-quota",
          "hotrank.limits.ingest-window",
          "hotrank.limits.admin-quota",
          "hotrank.limits.admin-window",
          "hotrank.limits.api-keys",
          "hotrank.limits.redis-timeout",
          "hotrank.redis.read-timeout");

  @DynamicPropertySource
  static void keyPrefix(DynamicPropertyRegistry registry) {
    registry.add("hotrank.redis.key-prefix", () -> PREFIX);
    TestEngines.redisClusterIfNamed(registry);
  }

  private static final Pattern RATE_LIMIT = Pattern.compile("\"ingest\";r=(\\d+);t=(\\d+)");

  @LocalServerPort int port;
  @Autowired Environment environment;
  @Autowired MeterRegistry meters;

  @Test
  void oneClientOnTwoInstances_getsExactlyItsQuota_withTheHeadersOnEveryAnswer() throws Exception {
    HttpJson one = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    List<String> same = new ArrayList<>();
    for (String property : SAME_ON_BOTH) {
      same.add("--" + property + "=" + environment.getProperty(property));
    }
    try (SecondInstance second = SecondInstance.start(environment, same.toArray(String[]::new))) {
      HttpJson two = second.http();
      String apiKey = "known-key";
      // 16 threads, 10 requests each, alternating instances: 160 requests for a quota of 40. The
      // body is invalid, so an admitted request is a 400 that changes nothing.
      List<Answer> answers = new ArrayList<>();
      try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
        List<Future<List<Answer>>> futures = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
          HttpJson first = t % 2 == 0 ? one : two;
          HttpJson other = t % 2 == 0 ? two : one;
          futures.add(
              pool.submit(
                  () -> {
                    List<Answer> mine = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                      mine.add(
                          (i % 2 == 0 ? first : other)
                              .post("/api/v1/events", "{}", "X-Api-Key", apiKey));
                    }
                    return mine;
                  }));
        }
        for (Future<List<Answer>> f : futures) {
          answers.addAll(f.get());
        }
      }
      for (MeterRegistry registry : List.of(meters, second.bean(MeterRegistry.class))) {
        assertThat(registry.find("hotrank.limits.decisions").tag("decided", "local").counters())
            .as("decisions taken without Redis")
            .isEmpty();
      }
      List<Answer> admitted = answers.stream().filter(a -> a.status() != 429).toList();
      List<Answer> limited = answers.stream().filter(a -> a.status() == 429).toList();
      assertThat(admitted).hasSize(40).allSatisfy(a -> assertThat(a.status()).isEqualTo(400));
      assertThat(limited).hasSize(120);
      // Each remaining count was handed out once: the decisions of both instances were serial.
      // With k requests used, the quota is whole again k x 90 s after the first one.
      List<Integer> remaining = new ArrayList<>();
      for (Answer a : admitted) {
        Matcher header = RATE_LIMIT.matcher(a.header("RateLimit"));
        assertThat(header.matches()).as(a.header("RateLimit")).isTrue();
        int r = Integer.parseInt(header.group(1));
        remaining.add(r);
        assertThat(Long.parseLong(header.group(2))).isBetween((40 - r) * 90L - 30, (40 - r) * 90L);
      }
      assertThat(remaining)
          .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 40).boxed().toList());
      for (Answer a : answers) {
        assertThat(a.header("RateLimit-Policy")).isEqualTo("\"ingest\";q=40;w=3600");
      }
      for (Answer a : limited) {
        assertThat(a.header("Content-Type")).startsWith("application/problem+json");
        assertThat(a.json().get("type").asString())
            .isEqualTo("https://hotrank.io/problems/rate-limited");
        assertThat(a.json().get("status").asInt()).isEqualTo(429);
        assertThat(a.json().get("detail").asString()).contains("'ingest'", "40");
        assertThat(a.header("RateLimit")).startsWith("\"ingest\";r=0;t=");
        assertThat(Long.parseLong(a.header("Retry-After"))).isBetween(1L, 90L);
      }

      // Another client, by key or by address, has its own quota; reads have no limit here.
      assertThat(one.post("/api/v1/events", "{}", "X-Api-Key", "other-key").status())
          .isEqualTo(400);
      Answer byAddress = two.post("/api/v1/events", "{}");
      assertThat(byAddress.status()).isEqualTo(400);
      assertThat(byAddress.header("RateLimit")).startsWith("\"ingest\";r=39;");
      // Keys not listed name no client: a new key each time still counts against the address.
      assertThat(one.post("/api/v1/events", "{}", "X-Api-Key", "made-up-1").header("RateLimit"))
          .startsWith("\"ingest\";r=38;");
      assertThat(two.post("/api/v1/events", "{}", "X-Api-Key", "made-up-2").header("RateLimit"))
          .startsWith("\"ingest\";r=37;");
      Answer read = one.get("/api/v1/boards", "X-Api-Key", apiKey);
      assertThat(read.status()).isEqualTo(200);
      assertThat(read.header("RateLimit-Policy")).isNull();
      assertThat(one.get("/actuator/health").header("RateLimit")).isNull();

      // Admin has its own policy, counted before the token is checked, on the path as the
      // handlers see it (path parameters and escapes do not make it another group).
      assertThat(
              two.get("/api/v1/admin;x=1/jobs", "X-Api-Key", "other-key")
                  .header("RateLimit-Policy"))
          .isEqualTo("\"admin\";q=3;w=3600");
      for (int i = 0; i < 3; i++) {
        assertThat(two.get("/api/v1/admin/jobs", "X-Api-Key", apiKey).status()).isEqualTo(401);
      }
      Answer admin = one.get("/api/v1/admin/jobs", one.adminHeader());
      assertThat(admin.status()).isEqualTo(200);
      assertThat(admin.header("RateLimit-Policy")).isEqualTo("\"admin\";q=3;w=3600");
      Answer overAdmin = two.get("/api/v1/admin/jobs", "X-Api-Key", apiKey);
      assertThat(overAdmin.status()).isEqualTo(429);
      assertThat(overAdmin.header("RateLimit-Policy")).isEqualTo("\"admin\";q=3;w=3600");
    }
  }
}
