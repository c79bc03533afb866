package io.hotrank.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.SecondInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Bizes through HTTP, on one database engine: a write naming a biz that is neither configured nor
 * created by an admin is refused whole (400 {@code unknown-biz} naming the field) and stores
 * nothing, not even a Bloom filter; a read answers 404; an admin creates a biz, after which it
 * works, here and on another instance. Each test uses bizes of its own, so that what one creates
 * does not leak into another.
 */
abstract class BizApiContract extends ApiTestSupport {

  private static String fresh() {
    return "b" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  private static void assertUnknownBiz(Answer answer, int status, String... fields) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(status);
    JsonNode problem = answer.json();
    assertThat(problem.get("type").asString()).isEqualTo("https://hotrank.io/problems/unknown-biz");
    List<String> named = new ArrayList<>();
    problem.get("errors").forEach(e -> named.add(e.get("field").asString()));
    assertThat(named).containsExactly(fields);
  }

  private String item(String biz, long id) {
    return HttpJson.json(Map.of("biz", biz, "id", id, "authorId", 1, "title", "item " + id));
  }

  private long rows(String sql, Object... args) {
    Long n = jdbc.queryForObject(sql, Long.class, args);
    return n == null ? 0 : n;
  }

  private void assertNothingStored(String biz) {
    assertThat(rows("SELECT COUNT(*) FROM hr_item WHERE biz = ?", biz)).isZero();
    assertThat(rows("SELECT COUNT(*) FROM hr_id_sequence WHERE biz = ?", biz)).isZero();
    assertThat(rows("SELECT COUNT(*) FROM hr_biz WHERE name = ?", biz)).isZero();
    assertThat(rows("SELECT COUNT(*) FROM hr_event_log WHERE biz = ?", biz)).isZero();
    assertThat(redis.keys(keyPrefix() + "*" + biz + "*")).isEmpty();
  }

  @Test
  void itemWrites_ofAnUnknownBiz_are400NamingBiz_andStoreNothing() {
    String biz = fresh();
    assertUnknownBiz(http.post("/api/v1/items", item(biz, 1)), 400, "biz");
    assertUnknownBiz(
        http.post(
            "/api/v1/items", HttpJson.json(Map.of("biz", biz, "authorId", 1, "title", "no id"))),
        400,
        "biz");
    assertUnknownBiz(http.put("/api/v1/items/" + biz + "/1", item(biz, 1)), 400, "biz");
    assertUnknownBiz(http.delete("/api/v1/items/" + biz + "/1"), 400, "biz");
    assertNothingStored(biz);
    // A malformed name is still a plain invalid request.
    assertThat(http.post("/api/v1/items", item("Not A Biz", 1)).json().get("type").asString())
        .endsWith("/invalid-request");
  }

  @Test
  void anEventBatch_withOneUnknownBiz_isRefusedWhole_namingItsField() {
    createItem("news", 1L, "known", 1, NOW.minusSeconds(60));
    long logged = rows("SELECT COUNT(*) FROM hr_event_log");
    String biz = fresh();
    Answer refused =
        http.post(
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"},"
                + "{\"biz\":\""
                + biz
                + "\",\"itemId\":1,\"type\":\"like\"},"
                + "{\"biz\":\"news\",\"itemId\":1,\"type\":\"view\"},"
                + "{\"biz\":\""
                + biz
                + "\",\"itemId\":2,\"type\":\"view\"}]}");
    assertUnknownBiz(refused, 400, "events[1].biz", "events[3].biz");
    assertThat(rows("SELECT COUNT(*) FROM hr_event_log")).isEqualTo(logged);
    assertNothingStored(biz);
  }

  @Test
  void reads_ofAnUnknownBiz_are404() {
    String biz = fresh();
    assertUnknownBiz(http.get("/api/v1/items/" + biz + "/1"), 404, "biz");
    assertUnknownBiz(http.get("/api/v1/items/" + biz + "?ids=1,2"), 404, "biz");
    assertUnknownBiz(http.get("/api/v1/feeds/latest?biz=" + biz), 404, "biz");
    assertUnknownBiz(http.get("/api/v1/feeds/tags/t1?biz=" + biz), 404, "biz");
    assertNothingStored(biz);
  }

  @Test
  void anAdminCreatesABiz_idempotently_andThenItWorks() {
    String biz = fresh();
    String body = HttpJson.json(Map.of("name", biz));
    assertThat(http.post("/api/v1/admin/bizes", body).status())
        .as("without the token")
        .isEqualTo(401);
    assertNothingStored(biz);

    Answer created = http.post("/api/v1/admin/bizes", body, http.adminHeader());
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().get("name").asString()).isEqualTo(biz);
    assertThat(created.json().get("configured").asBoolean()).isFalse();
    assertThat(created.json().get("createdAt").isNull()).isFalse();
    Answer again = http.post("/api/v1/admin/bizes", body, http.adminHeader());
    assertThat(again.status()).as(again.body()).isEqualTo(200);
    assertThat(again.json().get("createdAt")).isEqualTo(created.json().get("createdAt"));
    Answer configured = http.post("/api/v1/admin/bizes", "{\"name\":\"news\"}", http.adminHeader());
    assertThat(configured.status()).isEqualTo(200);
    assertThat(configured.json().get("configured").asBoolean()).isTrue();
    assertThat(rows("SELECT COUNT(*) FROM hr_biz WHERE name = 'news'")).isZero();

    Answer invalid = http.post("/api/v1/admin/bizes", "{\"name\":\"No Such\"}", http.adminHeader());
    assertThat(invalid.status()).isEqualTo(400);
    assertThat(invalid.json().get("errors").get(0).get("field").asString()).isEqualTo("name");
    assertThat(http.post("/api/v1/admin/bizes", "{}", http.adminHeader()).status()).isEqualTo(400);

    JsonNode listed = http.get("/api/v1/admin/bizes", http.adminHeader()).json().get("bizes");
    List<String> names = new ArrayList<>();
    listed.forEach(
        b -> {
          names.add(b.get("name").asString());
          if (b.get("name").asString().equals(biz)) {
            assertThat(b.get("configured").asBoolean()).isFalse();
          }
          if (b.get("name").asString().equals("news")) {
            assertThat(b.get("configured").asBoolean()).isTrue();
          }
        });
    assertThat(names).contains(biz, "news", "tick");

    createItem(biz, 1L, "first", 1, NOW.minusSeconds(60));
    postEvents("{\"biz\":\"" + biz + "\",\"itemId\":1,\"type\":\"like\"}");
    Answer read = http.get("/api/v1/items/" + biz + "/1");
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    assertThat(read.json().get("counts").get("like").asLong()).isEqualTo(1);
  }

  @Test
  void aBizCreatedOnOneInstance_isAcceptedByAnother() {
    String biz = fresh();
    try (SecondInstance second = SecondInstance.start(environment)) {
      HttpJson other = second.http();
      assertUnknownBiz(other.post("/api/v1/items", item(biz, 1)), 400, "biz");
      Answer created =
          http.post("/api/v1/admin/bizes", HttpJson.json(Map.of("name", biz)), http.adminHeader());
      assertThat(created.status()).isEqualTo(201);
      Answer accepted =
          await()
              .atMost(Duration.ofSeconds(10))
              .until(() -> other.post("/api/v1/items", item(biz, 1)), a -> a.status() != 400);
      assertThat(accepted.status()).as(accepted.body()).isEqualTo(201);
      assertThat(http.get("/api/v1/items/" + biz + "/1").status()).isEqualTo(200);
    }
  }
}
