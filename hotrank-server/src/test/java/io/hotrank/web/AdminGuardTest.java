package io.hotrank.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson;
import io.hotrank.support.RawHttp;
import io.hotrank.support.TestData;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * The admin token at the servlet port's edge: every request to {@code /api/v1/admin/**} or {@code
 * /actuator/metrics} without it, a CORS preflight or a path dressed up included, answers a 401
 * problem and logs no stack trace; Actuator serves only health and prometheus to anyone, and its
 * metrics name no host path.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(properties = "hotrank.data-dir=" + TestData.DIR + "admin-guard")
@ExtendWith(OutputCaptureExtension.class)
class AdminGuardTest {

  static {
    TestData.empty("admin-guard");
  }

  private static final String BEARER = "Bearer test-admin-token";

  @LocalServerPort int port;

  private static void assertUnauthorized(RawHttp.Answer answer, String what) {
    assertThat(answer.status()).as(what).isEqualTo(401);
    assertThat(answer.header("WWW-Authenticate")).as(what).startsWith("Bearer");
    if (answer.body().length > 0) { // none for HEAD
      assertThat(answer.header("Content-Type")).as(what).startsWith("application/problem+json");
      assertThat(answer.json().get("type").asString())
          .as(what)
          .isEqualTo("https://hotrank.io/problems/unauthorized");
    }
  }

  @Test
  void aCorsPreflightToAnAdminPath_is401_andLogsNoStackTrace(CapturedOutput output)
      throws IOException {
    RawHttp.Answer answer =
        RawHttp.exchange(
            port,
            "OPTIONS",
            "/api/v1/admin/jobs",
            "Origin",
            "https://evil.example",
            "Access-Control-Request-Method",
            "POST",
            "Access-Control-Request-Headers",
            "authorization");
    assertUnauthorized(answer, "preflight");
    assertThat(answer.body()).isNotEmpty();
    assertThat(output.getAll())
        .doesNotContain("UnauthorizedException")
        .doesNotContain("\tat io.hotrank.web")
        .doesNotContain("Request to /api/v1/admin/jobs failed");
  }

  @Test
  void pathTricksAndEveryMethod_withoutTheToken_are401() throws IOException {
    String[][] requests = {
      {"GET", "/api/v1/admin/jobs"},
      {"GET", "/api/v1/admin;x/jobs"},
      {"GET", "/api/v1/admin/jobs;x=1"},
      {"GET", "/api/v1/x/../admin/jobs"},
      {"GET", "/api/v1/%61dmin/jobs"},
      {"GET", "/api/v1/admin/jobs/"},
      {"GET", "/api/v1/admin/"},
      {"HEAD", "/api/v1/admin/jobs"},
      {"OPTIONS", "/api/v1/admin/jobs"},
      {"POST", "/api/v1/admin/boards/news-hn/recompute"},
      {"DELETE", "/api/v1/admin/jobs"},
      {"GET", "/actuator/metrics"},
      {"GET", "/actuator/metrics/"},
      {"GET", "/actuator;x/metrics/jvm.memory.used"},
      {"HEAD", "/actuator/metrics"},
      {"OPTIONS", "/actuator/metrics"},
    };
    for (String[] r : requests) {
      RawHttp.Answer answer =
          RawHttp.exchange(port, r[0], r[1], "Authorization", "Bearer wrong-token");
      assertUnauthorized(answer, r[0] + " " + r[1]);
      assertUnauthorized(RawHttp.exchange(port, r[0], r[1]), r[0] + " " + r[1] + " no header");
    }
  }

  @Test
  void withTheToken_adminAndMetricsAnswer() throws IOException {
    assertThat(
            RawHttp.exchange(port, "GET", "/api/v1/admin/jobs", "Authorization", BEARER).status())
        .isEqualTo(200);
    RawHttp.Answer metrics =
        RawHttp.exchange(port, "GET", "/actuator/metrics", "Authorization", BEARER);
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.text()).contains("jvm.memory.used");
    assertThat(
            RawHttp.exchange(
                    port, "GET", "/actuator/metrics/jvm.memory.used", "Authorization", BEARER)
                .status())
        .isEqualTo(200);
  }

  @Test
  void actuator_servesHealthAndPrometheusOnly_withoutHostPaths() {
    HttpJson http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    assertThat(http.get("/actuator/health").status()).isIn(200, 503);
    HttpJson.Answer prometheus = http.get("/actuator/prometheus");
    assertThat(prometheus.status()).isEqualTo(200);
    String scrape = prometheus.body();
    assertThat(scrape).contains("jvm_memory_used_bytes").contains("disk_free_bytes");
    String workingDirectory = Path.of("").toAbsolutePath().toString();
    assertThat(scrape).doesNotContain(workingDirectory).doesNotContain("path=\"/");
    assertThat(scrape).doesNotContainPattern("path=\"[A-Za-z]:\\\\");
    for (String hidden : new String[] {"/actuator/info", "/actuator/env", "/actuator/beans"}) {
      assertThat(http.get(hidden).status()).as(hidden).isEqualTo(404);
      assertThat(http.get(hidden, http.adminHeader()).status()).as(hidden).isEqualTo(404);
    }
  }
}
