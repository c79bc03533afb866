package io.hotrank.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotrank.HotrankApplication;
import io.hotrank.support.HttpJson;
import io.hotrank.support.RawHttp;
import io.hotrank.support.TestData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Ingest keys and operators' tokens as a user configures them, in an application this test starts
 * itself (so that its whole log, start included, is captured, at DEBUG for the web edge): with
 * {@code hotrank.access.ingest-keys} set, a public write without a key or with a wrong one is 401,
 * with a right one goes through; reads, the admin API and the Netty read port need none. No token,
 * key or digest of one ever shows in the log, accepted or refused. And a bad operator configuration
 * stops the start with a message naming the property.
 */
@ExtendWith(OutputCaptureExtension.class)
class AccessKeysTest {

  private static final String INGEST_KEY = "ingest-key-" + UUID.randomUUID();
  private static final String OTHER_KEY = "other-ingest-" + UUID.randomUUID();
  private static final String ADMIN_TOKEN = "admin-" + UUID.randomUUID();
  private static final String VIEWER_TOKEN = "viewer-" + UUID.randomUUID();
  private static final String HASHED_TOKEN = "hashed-" + UUID.randomUUID();

  private static ConfigurableApplicationContext start(String name, String... extra) {
    Path dataDir = Path.of(TestData.DIR + name);
    TestData.empty(name);
    List<String> args = new ArrayList<>();
    args.add("--hotrank.data-dir=" + dataDir);
    args.add("--hotrank.admin.token=" + ADMIN_TOKEN);
    args.add("--server.port=0");
    args.add("--server.address=127.0.0.1");
    args.add("--hotrank.read-server.port=0");
    args.add("--hotrank.read-server.address=127.0.0.1");
    args.add("--hotrank.board.scheduling=false");
    args.add("--hotrank.limits.enabled=false");
    args.add("--hotrank.bizes=keys");
    args.add("--logging.level.io.hotrank.web=DEBUG");
    args.add(
        "--spring.data.redis.url=" + System.getenv().getOrDefault("HOTRANK_TEST_REDIS_URL", ""));
    args.add("--hotrank.redis.key-prefix=hrtest:" + UUID.randomUUID() + ":");
    args.addAll(List.of(extra));
    return new SpringApplicationBuilder(HotrankApplication.class).run(args.toArray(String[]::new));
  }

  private static String sha256(String token) {
    return HexFormat.of().formatHex(Operators.sha256(token));
  }

  @Test
  void ingestKeys_guardPublicWritesOnly_andNoSecretIsLogged(CapturedOutput output)
      throws Exception {
    try (ConfigurableApplicationContext context =
        start(
            "access-keys",
            "--hotrank.access.ingest-keys[0].name=backend",
            "--hotrank.access.ingest-keys[0].token=" + INGEST_KEY,
            "--hotrank.access.ingest-keys[1].name=importer",
            "--hotrank.access.ingest-keys[1].token=" + OTHER_KEY,
            "--hotrank.admin.operators[0].name=vera",
            "--hotrank.admin.operators[0].token=" + VIEWER_TOKEN,
            "--hotrank.admin.operators[0].role=viewer",
            "--hotrank.admin.operators[1].name=hash",
            "--hotrank.admin.operators[1].token-sha256=" + sha256(HASHED_TOKEN),
            "--hotrank.admin.operators[1].role=operator")) {
      String port = context.getEnvironment().getProperty("local.server.port");
      HttpJson http = new HttpJson("http://127.0.0.1:" + port, ADMIN_TOKEN);
      String item = "{\"biz\":\"keys\",\"id\":1,\"authorId\":1,\"title\":\"one\"}";

      HttpJson.Answer none = http.post("/api/v1/items", item);
      assertThat(none.status()).isEqualTo(401);
      assertThat(none.json().get("type").asString())
          .isEqualTo("https://hotrank.io/problems/unauthorized");
      assertThat(http.post("/api/v1/items", item, "Authorization", "Bearer wrong").status())
          .isEqualTo(401);
      assertThat(
              http.post("/api/v1/items", item, "Authorization", "Bearer " + ADMIN_TOKEN).status())
          .as("an operator's token is no ingest key")
          .isEqualTo(401);
      assertThat(http.get("/api/v1/items/keys/1").status())
          .as("nothing was written")
          .isEqualTo(404);

      assertThat(http.post("/api/v1/items", item, "Authorization", "Bearer " + INGEST_KEY).status())
          .isEqualTo(201);
      assertThat(
              http.put("/api/v1/users/1/following/2", "", "Authorization", "bearer " + OTHER_KEY)
                  .status())
          .isEqualTo(204);
      assertThat(http.delete("/api/v1/items/keys/1").status()).isEqualTo(401);

      // Reads stay open, on both ports; the admin API takes operators' tokens, not ingest keys.
      assertThat(http.get("/api/v1/items/keys/1").status()).isEqualTo(200);
      // But for actors: what the platform says of its users is for the platform.
      String actor = "{\"createdAt\":\"2026-01-01T00:00:00Z\",\"trust\":0.5}";
      assertThat(http.put("/api/v1/actors/7", actor).status()).isEqualTo(401);
      assertThat(
              http.put("/api/v1/actors/7", actor, "Authorization", "Bearer " + INGEST_KEY).status())
          .isEqualTo(201);
      for (String read : List.of("/api/v1/actors/7", "/api/v1/actors/7/", "/api/v1/actors")) {
        assertThat(http.get(read).status()).as(read).isEqualTo(401);
      }
      assertThat(RawHttp.exchange(Integer.parseInt(port), "HEAD", "/api/v1/actors/7").status())
          .isEqualTo(401);
      assertThat(http.get("/api/v1/actors/7", "Authorization", "Bearer " + OTHER_KEY).status())
          .isEqualTo(200);
      // HEAD and OPTIONS change nothing and need no key (a CORS preflight carries none).
      int servicePort = Integer.parseInt(port);
      assertThat(RawHttp.exchange(servicePort, "HEAD", "/api/v1/items/keys/1").status())
          .isEqualTo(200);
      for (String path : List.of("/api/v1/items", "/api/v1/events", "/api/v1/items/keys/1")) {
        RawHttp.Answer options = RawHttp.exchange(servicePort, "OPTIONS", path);
        assertThat(options.status()).as("OPTIONS " + path).isEqualTo(200);
        assertThat(options.headers().get("allow")).as("OPTIONS " + path).isNotBlank();
      }
      assertThat(
              RawHttp.exchange(
                      servicePort,
                      "OPTIONS",
                      "/api/v1/items",
                      "Origin",
                      "https://app.example",
                      "Access-Control-Request-Method",
                      "POST")
                  .status())
          .as("a CORS preflight is not refused for want of a key")
          .isNotEqualTo(401);
      assertThat(http.get("/api/v1/boards").status()).isEqualTo(200);
      String readPort = context.getEnvironment().getProperty("local.read-server.port");
      HttpJson reads = new HttpJson("http://127.0.0.1:" + readPort, "");
      assertThat(reads.get("/api/v1/boards/no-such-board").status()).isEqualTo(404);
      assertThat(http.admin("/api/v1/admin/events/fold").status()).isEqualTo(200);
      assertThat(
              http.post("/api/v1/admin/events/fold", "", "Authorization", "Bearer " + HASHED_TOKEN)
                  .status())
          .as("a token-sha256 operator of role operator")
          .isEqualTo(200);
      assertThat(
              http.post("/api/v1/admin/events/fold", "", "Authorization", "Bearer " + VIEWER_TOKEN)
                  .status())
          .isEqualTo(403);
      assertThat(
              http.post("/api/v1/admin/events/fold", "", "Authorization", "Bearer " + INGEST_KEY)
                  .status())
          .isEqualTo(401);
      assertThat(
              http.get(
                      "/api/v1/admin/audit?target=events",
                      "Authorization",
                      "Bearer " + VIEWER_TOKEN)
                  .json()
                  .get("entries")
                  .get(0)
                  .get("actor")
                  .asString())
          .isEqualTo("hash");
    }
    String log = output.getAll();
    assertThat(log)
        .contains("Operators: [admin (admin), vera (viewer), hash (operator)]")
        .contains("Refused POST /api/v1/items: no ingest key")
        .contains("Refused POST /api/v1/admin/events/fold to operator 'vera'");
    for (String secret : List.of(INGEST_KEY, OTHER_KEY, ADMIN_TOKEN, VIEWER_TOKEN, HASHED_TOKEN)) {
      assertThat(log).doesNotContain(secret).doesNotContain(sha256(secret));
    }
  }

  @Test
  void aBadOperator_stopsTheStart_namingTheProperty(CapturedOutput output) {
    assertThatThrownBy(
            () ->
                start(
                    "access-bad",
                    "--hotrank.admin.operators[0].name=ok",
                    "--hotrank.admin.operators[0].token=" + VIEWER_TOKEN,
                    "--hotrank.admin.operators[0].role=superuser"))
        .hasStackTraceContaining(
            "hotrank.admin.operators[0].role must be viewer, operator or admin");
    assertThat(output.getAll()).doesNotContain(VIEWER_TOKEN);
  }
}
