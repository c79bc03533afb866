package io.hotrank.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.job.JobScheduler;
import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.RequestFingerprint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Idempotency keys and event ids through HTTP, against one engine and a real Redis: a repeat
 * replays the first answer and changes nothing, another request under the key is 422, a key held by
 * a running request is 409, keys are per client, kept for the retention and then pruned, and an
 * event id counts once. One subclass per engine, with the same settings as the API contract's, so
 * that the two share their application context.
 */
public abstract class IdempotencyContract extends ApiTestSupport {

  /** Clients named by an API key (the test profile lists them in hotrank.limits.api-keys). */
  private static final String CLIENT_A = "idem-a";

  private static final String CLIENT_B = "idem-b";

  @Autowired private JobScheduler jobs;

  private static String newKey() {
    return "key-" + UUID.randomUUID();
  }

  private Answer postEvents(String key, String body) {
    return http.post("/api/v1/events", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_A);
  }

  private JsonNode counts(long id) {
    return http.get("/api/v1/items/news/" + id).json().get("counts");
  }

  private static String event(long itemId, String type) {
    return "{\"biz\":\"news\",\"itemId\":" + itemId + ",\"type\":\"" + type + "\"}";
  }

  private static String event(String id, long itemId, String type) {
    return "{\"id\":\""
        + id
        + "\",\"biz\":\"news\",\"itemId\":"
        + itemId
        + ",\"type\":\""
        + type
        + "\"}";
  }

  private static String batch(String... events) {
    return "{\"events\":[" + String.join(",", events) + "]}";
  }

  private long items() {
    return jdbc.queryForObject("SELECT COUNT(*) FROM hr_item", Long.class);
  }

  @Test
  void eventBatch_sentAgainWithItsKey_countsOnce_andReplaysTheFirstAnswer() {
    createItem("news", 1L, "one", 7, NOW);
    String key = newKey();
    String body = batch(event(1, "like"), event(1, "view"), event(1, "view"));

    Answer first = postEvents(key, body);
    Answer again = postEvents(key, body);

    assertThat(first.status()).as(first.body()).isEqualTo(202);
    assertThat(first.body()).isEqualTo("{\"accepted\":3,\"duplicates\":0}");
    assertThat(first.header("Idempotent-Replayed")).isNull();
    assertThat(again.status()).isEqualTo(202);
    assertThat(again.raw()).isEqualTo(first.raw());
    assertThat(again.header("Content-Type")).isEqualTo(first.header("Content-Type"));
    assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
    fold();
    assertThat(counts(1).get("like").asLong()).isEqualTo(1);
    assertThat(counts(1).get("view").asLong()).isEqualTo(2);

    // Read through Redis once read from the database; with Redis emptied (as after a restart of
    // every instance and of Redis), the database still answers.
    Set<String> cached = redis.keys(keyPrefix() + "idem:*");
    assertThat(cached).isNotEmpty();
    redis.delete(cached);
    Answer afterRestart = postEvents(key, body);
    assertThat(afterRestart.status()).isEqualTo(202);
    assertThat(afterRestart.raw()).isEqualTo(first.raw());
    assertThat(afterRestart.header("Idempotent-Replayed")).isEqualTo("true");
    fold();
    assertThat(counts(1).get("view").asLong()).isEqualTo(2);
  }

  @Test
  void sameKey_withAnotherRequest_is422_andChangesNothing() {
    createItem("news", 1L, "one", 7, NOW);
    String key = newKey();
    assertThat(postEvents(key, batch(event(1, "like"))).status()).isEqualTo(202);

    Answer otherBody = postEvents(key, batch(event(1, "share")));
    Answer otherPath =
        http.post(
            "/api/v1/items",
            "{\"biz\":\"news\",\"authorId\":1,\"title\":\"x\"}",
            "Idempotency-Key",
            key,
            "X-Api-Key",
            CLIENT_A);

    for (Answer refused : List.of(otherBody, otherPath)) {
      assertThat(refused.status()).as(refused.body()).isEqualTo(422);
      assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
      assertThat(refused.json().get("type").asString()).endsWith("/idempotency-key-reused");
    }
    fold();
    assertThat(counts(1).get("share").asLong()).isZero();
    assertThat(items()).isEqualTo(1);
  }

  @Test
  void invalidKey_is400_namingTheHeader_andRunsNothing() {
    createItem("news", 1L, "one", 7, NOW);
    // (Java's HTTP client sends a non-ASCII character as '?': a key with one cannot be sent here.)
    for (String key : List.of("x".repeat(256), "")) {
      Answer refused = postEvents(key, batch(event(1, "like")));
      assertThat(refused.status()).as(key + ": " + refused.body()).isEqualTo(400);
      assertThat(refused.json().get("errors").get(0).get("field").asString())
          .isEqualTo("Idempotency-Key");
    }
    fold();
    assertThat(counts(1).get("like").asLong()).isZero();
  }

  @Test
  void concurrentRequestsWithOneKey_runOnce() throws Exception {
    String key = newKey();
    String body = "{\"biz\":\"news\",\"authorId\":1,\"title\":\"raced\"}";
    int clients = 8;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Answer>> answers = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
      for (int i = 0; i < clients; i++) {
        answers.add(
            pool.submit(
                () -> {
                  start.await();
                  return http.post(
                      "/api/v1/items", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_A);
                }));
      }
      start.countDown();
      int ran = 0;
      Answer created = null;
      List<Answer> all = new ArrayList<>();
      for (Future<Answer> f : answers) {
        all.add(f.get());
      }
      for (Answer a : all) {
        if (a.status() == 201 && a.header("Idempotent-Replayed") == null) {
          ran++;
          created = a;
        }
      }
      assertThat(ran).as("requests that ran").isEqualTo(1);
      for (Answer a : all) {
        if (a.status() == 201) {
          assertThat(a.raw()).isEqualTo(created.raw());
        } else {
          assertThat(a.status()).as(a.body()).isEqualTo(409);
          assertThat(a.json().get("type").asString()).endsWith("/idempotency-key-in-flight");
          assertThat(a.header("Retry-After")).isNotNull();
        }
      }
    }
    assertThat(items()).isEqualTo(1);
  }

  @Test
  void keyOfARequestThatDiedRunning_is409_untilItsLeaseEnds_thenRunsAgain() throws Exception {
    String key = newKey();
    String body = "{\"biz\":\"news\",\"authorId\":1,\"title\":\"died %s\"}".formatted(key);
    Answer first = http.post("/api/v1/items", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_A);
    assertThat(first.status()).isEqualTo(201);
    // As an instance killed after claiming the key and before writing anything leaves it: claimed
    // for the lease, no answer (and here no item either).
    jdbc.update("DELETE FROM hr_item");
    jdbc.update(
        "UPDATE hr_idempotency SET state = 0, status = NULL, headers = NULL, body = NULL,"
            + " lease_until = ? WHERE fingerprint = ?",
        clock.millis() + 60_000,
        RequestFingerprint.of("POST /api/v1/items", body));
    redis.delete(redis.keys(keyPrefix() + "idem:*"));

    Answer inFlight =
        http.post("/api/v1/items", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_A);
    assertThat(inFlight.status()).as(inFlight.body()).isEqualTo(409);
    assertThat(inFlight.header("Retry-After")).isEqualTo("1");
    assertThat(items()).isZero();

    clock.advance(Duration.ofSeconds(61));
    Answer ran = http.post("/api/v1/items", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_A);
    assertThat(ran.status()).as(ran.body()).isEqualTo(201);
    assertThat(ran.header("Idempotent-Replayed")).isNull();
    assertThat(items()).isEqualTo(1);
  }

  @Test
  void keysArePerClient() {
    String key = newKey();
    String body = "{\"biz\":\"news\",\"authorId\":1,\"title\":\"mine\"}";
    Answer a = http.post("/api/v1/items", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_A);
    Answer b = http.post("/api/v1/items", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_B);
    Answer byAddress = http.post("/api/v1/items", body, "Idempotency-Key", key);
    Answer aAgain = http.post("/api/v1/items", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_A);

    for (Answer ran : List.of(a, b, byAddress)) {
      assertThat(ran.status()).as(ran.body()).isEqualTo(201);
      assertThat(ran.header("Idempotent-Replayed")).isNull();
    }
    assertThat(aAgain.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(aAgain.json().get("id")).isEqualTo(a.json().get("id"));
    assertThat(items()).isEqualTo(3);
  }

  @Test
  void answersAreKeptForTheRetention_thenPruned() throws Exception {
    String key = newKey();
    String body = "{\"biz\":\"news\",\"authorId\":1,\"title\":\"kept %s\"}".formatted(key);
    String fingerprint = RequestFingerprint.of("POST /api/v1/items", body);
    Answer first = http.post("/api/v1/items", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_A);
    assertThat(first.status()).isEqualTo(201);

    clock.advance(Duration.ofHours(23));
    Answer kept = http.post("/api/v1/items", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_A);
    assertThat(kept.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(items()).isEqualTo(1);

    clock.advance(Duration.ofHours(1).plusMinutes(1));
    prune();
    assertThat(
            jdbc.queryForObject(
                "SELECT COUNT(*) FROM hr_idempotency WHERE fingerprint = ?",
                Long.class,
                fingerprint))
        .isZero();
    redis.delete(redis.keys(keyPrefix() + "idem:*"));
    Answer anew = http.post("/api/v1/items", body, "Idempotency-Key", key, "X-Api-Key", CLIENT_A);
    assertThat(anew.status()).isEqualTo(201);
    assertThat(anew.header("Idempotent-Replayed")).isNull();
    assertThat(items()).isEqualTo(2);
  }

  @Test
  void refusedRequest_freesItsKey_forARetryThatRuns() {
    String key = newKey();
    String body = batch(event(1, "like"));
    Answer missing = postEvents(key, body);
    assertThat(missing.status()).as(missing.body()).isEqualTo(404);

    createItem("news", 1L, "one", 7, NOW);
    Answer ran = postEvents(key, body);
    assertThat(ran.status()).as(ran.body()).isEqualTo(202);
    assertThat(ran.header("Idempotent-Replayed")).isNull();
    fold();
    assertThat(counts(1).get("like").asLong()).isEqualTo(1);
  }

  @Test
  void adminWrite_sentAgainWithItsKey_runsOnce() {
    String name = "idem" + Long.toHexString(System.nanoTime()).substring(4);
    String key = newKey();
    String body = HttpJson.json(Map.of("name", name));
    String[] headers = {
      "Authorization", http.adminHeader()[1], "Idempotency-Key", key, "X-Api-Key", CLIENT_A
    };
    Answer created = http.post("/api/v1/admin/bizes", body, headers);
    Answer again = http.post("/api/v1/admin/bizes", body, headers);

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    // Without the key the second call would answer 200, "existed already".
    assertThat(again.status()).isEqualTo(201);
    assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(
            jdbc.queryForObject(
                "SELECT COUNT(*) FROM hr_audit WHERE action = 'biz.create' AND target LIKE ?",
                Long.class,
                "%" + name + "%"))
        .isEqualTo(1);
  }

  @Test
  void eventIds_countOnce_withinABatch_andAcrossBatches() {
    createItem("news", 1L, "one", 7, NOW);
    String a = "a-" + UUID.randomUUID();
    String b = "b-" + UUID.randomUUID();
    String c = "c-" + UUID.randomUUID();

    Answer first =
        http.post(
            "/api/v1/events",
            batch(event(a, 1, "view"), event(a, 1, "view"), event(b, 1, "view"), event(1, "view")));
    Answer second = http.post("/api/v1/events", batch(event(b, 1, "view"), event(c, 1, "view")));

    assertThat(first.body()).isEqualTo("{\"accepted\":3,\"duplicates\":1}");
    assertThat(second.body()).isEqualTo("{\"accepted\":1,\"duplicates\":1}");
    fold();
    assertThat(counts(1).get("view").asLong()).isEqualTo(4);
  }

  @Test
  void eventIds_areKeptForTheDedupWindow_thenPruned() throws Exception {
    createItem("news", 1L, "one", 7, NOW);
    String body = batch(event("w-" + UUID.randomUUID(), 1, "view"));
    assertThat(http.post("/api/v1/events", body).body())
        .isEqualTo("{\"accepted\":1,\"duplicates\":0}");

    clock.advance(Duration.ofHours(23));
    assertThat(http.post("/api/v1/events", body).body())
        .isEqualTo("{\"accepted\":0,\"duplicates\":1}");

    clock.advance(Duration.ofHours(1).plusMinutes(1));
    assertThat((Long) jobs.runNow("event-id-prune")).isGreaterThanOrEqualTo(1);
    assertThat(http.post("/api/v1/events", body).body())
        .isEqualTo("{\"accepted\":1,\"duplicates\":0}");
    fold();
    assertThat(counts(1).get("view").asLong()).isEqualTo(2);
  }

  @Test
  void eventIds_sentAtOnceByManyClients_countOnce() throws Exception {
    createItem("news", 1L, "one", 7, NOW);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      ids.add("r-" + UUID.randomUUID());
    }
    int clients = 6;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Answer>> answers = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
      for (int i = 0; i < clients; i++) {
        List<String> shuffled = new ArrayList<>(ids);
        java.util.Collections.shuffle(shuffled, new java.util.Random(i));
        String body =
            batch(shuffled.stream().map(id -> event(id, 1, "share")).toArray(String[]::new));
        answers.add(
            pool.submit(
                () -> {
                  start.await();
                  return http.post("/api/v1/events", body);
                }));
      }
      start.countDown();
      int accepted = 0;
      int duplicates = 0;
      for (Future<Answer> f : answers) {
        Answer answer = f.get();
        assertThat(answer.status()).as(answer.body()).isEqualTo(202);
        accepted += answer.json().get("accepted").asInt();
        duplicates += answer.json().get("duplicates").asInt();
      }
      assertThat(accepted).isEqualTo(ids.size());
      assertThat(duplicates).isEqualTo(ids.size() * (clients - 1));
    }
    fold();
    assertThat(counts(1).get("share").asLong()).isEqualTo(ids.size());
  }

  @Test
  void invalidEventId_is400_namingTheField() {
    createItem("news", 1L, "one", 7, NOW);
    Answer refused =
        http.post("/api/v1/events", batch(event(1, "like"), event("has space", 1, "like")));
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.json().get("errors").get(0).get("field").asString())
        .isEqualTo("events[1].id");
  }

  private void prune() throws Exception {
    assertThat((Long) jobs.runNow(IdempotencyConfiguration.PRUNE)).isGreaterThanOrEqualTo(1);
  }
}
