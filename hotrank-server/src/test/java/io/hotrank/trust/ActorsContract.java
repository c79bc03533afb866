package io.hotrank.trust;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.TrustModel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Actors over HTTP against a real database: what the platform says of them, kept and replaced
 * without touching an operator's flag; invalid bodies refused naming the field, storing nothing;
 * flags and their clearing audited with the state before and after. One subclass per engine, with
 * the API contract's settings, so that they share its application context.
 */
public abstract class ActorsContract extends ApiTestSupport {

  private final long userId = ThreadLocalRandom.current().nextLong(1_000_000_000L, 2_000_000_000L);

  private String path() {
    return "/api/v1/actors/" + userId;
  }

  private String admin() {
    return "/api/v1/admin/actors/" + userId;
  }

  @BeforeEach
  void forgetTheActor() {
    jdbc.update("DELETE FROM hr_actor WHERE user_id = ?", userId);
  }

  @Test
  void put_storesWhatThePlatformSays_andAPutAgainReplacesIt() {
    Answer created =
        http.put(path(), "{\"createdAt\":\"2026-05-01T08:00:00.123456Z\",\"trust\":0.25}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().get("userId").asLong()).isEqualTo(userId);
    assertThat(created.json().get("createdAt").asString()).isEqualTo("2026-05-01T08:00:00.123Z");
    assertThat(created.json().get("bot").asBoolean()).isFalse();
    assertThat(created.json().get("trust").asDouble()).isEqualTo(0.25);
    assertThat(created.json().get("flag").isNull()).isTrue();

    Answer replaced = http.put(path(), "{\"createdAt\":\"2026-05-02T00:00:00Z\",\"bot\":true}");
    assertThat(replaced.status()).as(replaced.body()).isEqualTo(200);
    assertThat(replaced.json().get("bot").asBoolean()).isTrue();
    assertThat(replaced.json().get("trust").asDouble()).as("absent is 1").isEqualTo(1.0);

    Answer read = http.get(path());
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.json()).isEqualTo(replaced.json());
    assertThat(read.json().get("createdAt").asString()).isEqualTo("2026-05-02T00:00:00Z");

    String atTheLimit = NOW.plus(Duration.ofMinutes(5)).toString();
    Answer ahead = http.put(path(), "{\"createdAt\":\"" + atTheLimit + "\"}");
    assertThat(ahead.status()).as("5 minutes ahead is a clock's drift").isEqualTo(200);
    assertThat(ahead.json().get("createdAt").asString()).isEqualTo(atTheLimit);
  }

  /**
   * The platform's first put and operators' first flags of one actor, all at once: each applies
   * whole and none fails. The row is inserted by exactly one of them (a put answering 201, or a
   * flag audited with no state before), the others update it; the flag ends as one of the reasons
   * and the age as the put's; every flag is audited.
   */
  @Test
  void concurrentFirstPutAndFlags_allApply_andExactlyOneInsertsTheActor() throws Exception {
    int flags = 4;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(flags + 1);
    try {
      List<Future<Answer>> answers = new ArrayList<>();
      answers.add(
          pool.submit(
              () -> {
                start.await();
                return http.put(path(), "{\"createdAt\":\"2026-05-01T00:00:00Z\",\"trust\":0.5}");
              }));
      for (int i = 0; i < flags; i++) {
        String body = "{\"reason\":\"ring " + i + "\"}";
        answers.add(
            pool.submit(
                () -> {
                  start.await();
                  return http.put(admin() + "/flag", body, http.adminHeader());
                }));
      }
      start.countDown();
      List<Integer> statuses = new ArrayList<>();
      for (Future<Answer> a : answers) {
        Answer answer = a.get(30, TimeUnit.SECONDS);
        assertThat(answer.status()).as(answer.body()).isIn(200, 201);
        statuses.add(answer.status());
      }

      List<Map<String, Object>> audit =
          jdbc.queryForList(
              "SELECT before_json FROM hr_audit WHERE target = ? AND action = 'actor.flag'",
              "actor:" + userId);
      assertThat(audit).hasSize(flags);
      long inserted =
          statuses.stream().filter(s -> s == 201).count()
              + audit.stream().filter(row -> row.get("before_json") == null).count();
      assertThat(inserted).as("the row's inserts").isEqualTo(1);
      Answer end = http.get(path());
      assertThat(end.json().get("createdAt").asString()).isEqualTo("2026-05-01T00:00:00Z");
      assertThat(end.json().get("trust").asDouble()).isEqualTo(0.5);
      assertThat(end.json().get("flag").get("reason").asString()).matches("ring [0-3]");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void invalidActors_are400_namingEachField_andStoreNothing() {
    Map<String, List<String>> cases =
        Map.of(
            "{\"trust\":0.5}",
            List.of("createdAt"),
            "{\"createdAt\":\"2026-05-01T00:00:00Z\",\"trust\":1.5}",
            List.of("trust"),
            "{\"createdAt\":\"2026-05-01T00:00:00Z\",\"trust\":-0.1}",
            List.of("trust"),
            "{\"createdAt\":1714000000}",
            List.of("createdAt"),
            "{\"createdAt\":\"yesterday\"}",
            List.of("createdAt"),
            "{\"createdAt\":\"" + NOW.plus(Duration.ofMinutes(6)) + "\"}",
            List.of("createdAt"),
            "{\"createdAt\":\"2026-05-01T00:00:00Z\",\"bot\":\"yes\"}",
            List.of("bot"));
    cases.forEach(
        (body, fields) -> {
          Answer refused = http.put(path(), body);
          assertThat(refused.status()).as(body).isEqualTo(400);
          assertThat(refused.header("Content-Type")).isEqualTo("application/problem+json");
          assertThat(refused.json().get("errors").findValuesAsString("field"))
              .as(body)
              .containsExactlyElementsOf(fields);
        });
    Answer zero = http.put("/api/v1/actors/0", "{\"createdAt\":\"2026-05-01T00:00:00Z\"}");
    assertThat(zero.status()).isEqualTo(400);
    assertThat(zero.json().get("errors").findValuesAsString("field")).containsExactly("userId");

    Answer missing = http.get(path());
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().get("type").asString()).endsWith("/actor-not-found");
  }

  @Test
  void flag_isKeptThroughThePlatformsPuts_andFlagAndUnflagAreAudited() {
    http.put(path(), "{\"createdAt\":\"2026-05-01T00:00:00Z\",\"trust\":0.8}");

    Answer flagged =
        http.put(admin() + "/flag", "{\"reason\":\"bought likes\"}", http.adminHeader());
    assertThat(flagged.status()).as(flagged.body()).isEqualTo(200);
    assertThat(flagged.json().get("flag").get("reason").asString()).isEqualTo("bought likes");
    assertThat(flagged.json().get("flag").get("by").asString()).isEqualTo("admin");
    assertThat(flagged.json().get("flag").get("at").asString()).isEqualTo(NOW.toString());

    Answer replaced = http.put(path(), "{\"createdAt\":\"2026-05-01T00:00:00Z\",\"trust\":0.9}");
    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.json().get("trust").asDouble()).isEqualTo(0.9);
    assertThat(replaced.json().get("flag").get("reason").asString()).isEqualTo("bought likes");

    Answer cleared = http.delete(admin() + "/flag?reason=appealed", http.adminHeader());
    assertThat(cleared.status()).as(cleared.body()).isEqualTo(200);
    assertThat(cleared.json().get("flag").isNull()).isTrue();
    Answer again = http.delete(admin() + "/flag", http.adminHeader());
    assertThat(again.status()).as("clearing no flag changes nothing").isEqualTo(200);

    List<Map<String, Object>> audit =
        jdbc.queryForList(
            "SELECT action, actor, reason, before_json, after_json FROM hr_audit WHERE target = ?"
                + " ORDER BY id",
            "actor:" + userId);
    assertThat(audit)
        .extracting(row -> row.get("action"))
        .containsExactly("actor.flag", "actor.unflag");
    assertThat(audit)
        .extracting(row -> row.get("reason"))
        .containsExactly("bought likes", "appealed");
    assertThat((String) audit.get(0).get("after_json")).contains("bought likes");
    assertThat((String) audit.get(1).get("before_json")).contains("bought likes");
    assertThat(http.get(admin(), http.adminHeader()).json().get("flag").isNull()).isTrue();
  }

  @Test
  void anActorThePlatformNeverSent_canBeFlagged_withoutAnAge() {
    Answer refused = http.put(admin() + "/flag", "{\"reason\":\"  \"}", http.adminHeader());
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.json().get("errors").findValuesAsString("field")).containsExactly("reason");
    assertThat(http.get(path()).status()).as("nothing stored").isEqualTo(404);
    assertThat(http.delete(admin() + "/flag", http.adminHeader()).status()).isEqualTo(404);

    Answer flagged = http.put(admin() + "/flag", "{\"reason\":\"ring\"}", http.adminHeader());
    assertThat(flagged.status()).as(flagged.body()).isEqualTo(200);
    assertThat(flagged.json().get("createdAt").isNull()).isTrue();
    assertThat(flagged.json().get("trust").asDouble()).isEqualTo(1.0);
    assertThat(http.get(path()).json().get("flag").get("reason").asString()).isEqualTo("ring");

    Answer described = http.put(path(), "{\"createdAt\":\"2026-05-01T00:00:00Z\"}");
    assertThat(described.status()).as("the row was the operator's").isEqualTo(200);
    assertThat(described.json().get("createdAt").asString()).isEqualTo("2026-05-01T00:00:00Z");
    assertThat(described.json().get("flag").get("reason").asString()).isEqualTo("ring");
  }

  /**
   * Events of actors of every kind (old, new, low trust, bot, flagged, unknown, anonymous), with
   * repeated likes and views and a flag between two phases, folded from the event log: every item's
   * raw and trusted counters, and a board ranked by each, are what an independent model computes.
   */
  @Test
  void trustedCountersAndBoards_followTheModel_withAFlagMidStream() {
    List<Long> ids = new ArrayList<>();
    Map<Long, Instant> createdAt = new HashMap<>();
    for (long id = 1; id <= 6; id++) {
      Instant created = NOW.minus(Duration.ofMinutes(25 * id));
      createItem("trust", id, "item " + id, 9, created);
      ids.add(id);
      createdAt.put(id, created);
    }
    TrustModel model = new TrustModel(http, "trust", ids, TrustModel.users(jdbc, 3));
    model.sendActors(NOW);
    // The leaderboard keeps earlier tests' values of these ids in Redis: refilled from the
    // database (no likes yet), then kept by the folds alone.
    Answer rebuilt = http.admin("/api/v1/admin/boards/trust-liked/rebuild");
    assertThat(rebuilt.status()).as(rebuilt.body()).isEqualTo(200);
    Random random = new Random(42);
    postEvents(model.events(random, 300).toArray(String[]::new));
    model.assertCounters();

    model.flagMidStream();
    model.assertCounters(); // taken back at once, in the flag's transaction
    postEvents(model.events(random, 300).toArray(String[]::new));

    model.assertCounters();
    assertThat(model.trustMatters()).as("the events make trust matter").isTrue();
    model.assertHackerNewsBoard("trust-hn", true, createdAt, NOW);
    model.assertHackerNewsBoard("trust-raw", false, createdAt, NOW);
    model.assertTrustedLikesLeaderboard("trust-liked");
  }

  /**
   * The model's events on window boards by trusted weight and raw, a flag between two phases, at
   * the time of day (Redis keeps a window's buckets by the clock): each item's score is what its
   * events weighed when folded, the flag taking its actors' standing likes and collects out of the
   * trusted board; and replayed from the event log (Redis lost the boards), the boards add the same
   * weights, the flagged actors' views of the first phase included.
   */
  @Test
  void windowBoards_addEachEventsTrustedWeight_andAReplayFromTheLogAddsTheSame() {
    clock.set(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    // Ids of this run's own: a replay reads the last hour of the log, earlier runs' events too.
    long base =
        1_000_000 + java.util.concurrent.ThreadLocalRandom.current().nextLong(1_000_000) * 10;
    List<Long> ids = new ArrayList<>();
    for (long id = base + 1; id <= base + 6; id++) {
      createItem("trust", id, "item " + id, 9, clock.instant().minus(Duration.ofMinutes(5)));
      ids.add(id);
    }
    TrustModel model = new TrustModel(http, "trust", ids, TrustModel.users(jdbc, 12));
    model.sendActors(clock.instant());
    Random random = new Random(43);
    postEvents(model.events(random, 300).toArray(String[]::new));
    model.flagMidStream();
    model.assertWindowBoard("trust-window", true);
    postEvents(model.events(random, 300).toArray(String[]::new));
    model.assertCounters();
    assertThat(model.trustMatters()).as("the events make trust matter").isTrue();
    model.assertWindowBoard("trust-window", true);
    model.assertWindowBoard("trust-window-raw", false);
    // A family of window boards by tag weighs alike: every item carries the tag t1.
    model.assertWindowBoard("trust-window-tag/segments/t1", true);

    for (String board : List.of("trust-window", "trust-window-raw", "trust-window-tag")) {
      Answer rebuilt = http.admin("/api/v1/admin/boards/" + board + "/rebuild");
      assertThat(rebuilt.status()).as(rebuilt.body()).isEqualTo(200);
    }
    model.assertWindowBoard("trust-window", true);
    model.assertWindowBoard("trust-window-raw", false);
    model.assertWindowBoard("trust-window-tag/segments/t1", true);
  }

  /**
   * A like set again within one fold (unliked and liked) moves to the new like's time, and a flag's
   * retraction records it there: a window board takes its weight out of the bucket the new like put
   * it in, not out of the first like's (outside the window here). Asserted on what the database
   * keeps: the contexts of the three engines share one Redis prefix in a test run, so a window
   * board in Redis may be another engine's between two of its folds.
   */
  @Test
  void aLikeSetAgainWithinAFold_isTakenBackByAFlag_whereItNowLies() {
    long item = 3_000_000 + ThreadLocalRandom.current().nextLong(1_000_000);
    createItem("trust", item, "re-liked", 9, NOW.minus(Duration.ofHours(3)));
    Answer put = http.put(path(), "{\"createdAt\":\"2020-01-01T00:00:00Z\"}");
    assertThat(put.status()).as(put.body()).isEqualTo(201);
    String event =
        "{\"biz\":\"trust\",\"itemId\":"
            + item
            + ",\"type\":\"%s\",\"userId\":"
            + userId
            + ",\"at\":\"%s\"}";
    Instant first = NOW.minus(Duration.ofMinutes(90));
    Instant again = NOW.minusSeconds(60);
    postEvents(String.format(event, "like", first));
    postEvents(String.format(event, "unlike", again), String.format(event, "like", again));
    assertThat(
            jdbc.queryForObject(
                "SELECT created_at FROM hr_user_action WHERE biz = ? AND item_id = ? AND user_id = ?"
                    + " AND action = ?",
                Long.class,
                "trust",
                item,
                userId,
                "like"))
        .as("the time of the like that stands")
        .isEqualTo(again.toEpochMilli());

    flag("ring");

    assertThat(
            jdbc.queryForList(
                "SELECT seqs FROM hr_fold WHERE source = ? AND seqs LIKE ?",
                String.class,
                "retraction",
                userId + "|%"))
        .as("the retraction's record: the like it took back, at its time")
        .singleElement()
        .asString()
        .endsWith("|trust:l" + item + "@" + again.toEpochMilli());
    assertThat(trusted(item, "like")).isZero();
  }

  /**
   * A flag racing a stream of likes and collects of its actor, each batch folded as it comes (the
   * scheduled folder runs too): whichever folds came before or after the flag, none of the actor's
   * actions weighs anything at the end, and every item's trusted likes and collects are the weights
   * of the actions that stand.
   */
  @Test
  void aFlagRacingTheFolds_takesBackEverything_exactly() throws Exception {
    for (long id = 1; id <= 12; id++) {
      createItem("trust", id, "item " + id, 9, NOW.minus(Duration.ofHours(1)));
    }
    long users = TrustModel.users(jdbc, 4);
    List<Long> flagged =
        TrustModel.flagDuringAStream(http, "trust", 0, 12, users, this::postEvents);
    fold();

    for (long user : flagged) {
      TrustModel.assertFlagTookEverythingBack(jdbc, "trust", user);
    }
  }

  /**
   * A flag takes back what the actor's standing likes added; clearing it restores nothing; an
   * unlike of a like taken back takes nothing more; the actor's next like counts; a second flag
   * takes that one back, and a new reason changes nothing else.
   */
  @Test
  void flagUnflagAndFlagAgain_takeBackExactlyWhatStillWeighs() {
    createItem("trust", 1L, "one", 9, NOW.minus(Duration.ofHours(1)));
    createItem("trust", 2L, "two", 9, NOW.minus(Duration.ofHours(1)));
    Answer put = http.put(path(), "{\"createdAt\":\"2020-01-01T00:00:00Z\"}");
    assertThat(put.status()).as(put.body()).isEqualTo(201);
    String like = "{\"biz\":\"trust\",\"itemId\":%d,\"type\":\"%s\",\"userId\":" + userId + "}";
    postEvents(String.format(like, 1, "like"), String.format(like, 1, "view"));
    assertThat(trusted(1, "like")).isEqualTo(1.0);

    flag("bought");
    assertThat(trusted(1, "like")).isZero();
    assertThat(trusted(1, "view")).as("a view stays counted").isEqualTo(1.0);
    assertThat(http.delete(admin() + "/flag", http.adminHeader()).status()).isEqualTo(200);
    assertThat(trusted(1, "like")).as("clearing restores nothing").isZero();

    postEvents(String.format(like, 1, "unlike"), String.format(like, 2, "like"));
    assertThat(trusted(1, "like")).isZero();
    assertThat(raw(1, "like")).isZero();
    assertThat(trusted(2, "like")).as("the next like counts").isEqualTo(1.0);

    flag("bought again");
    assertThat(trusted(2, "like")).isZero();
    flag("a new reason");
    assertThat(trusted(2, "like")).isZero();
    assertThat(raw(2, "like")).as("raw counters stay").isEqualTo(1);
  }

  private void flag(String reason) {
    Answer flagged =
        http.put(admin() + "/flag", "{\"reason\":\"" + reason + "\"}", http.adminHeader());
    assertThat(flagged.status()).as(flagged.body()).isEqualTo(200);
  }

  private double trusted(long itemId, String counter) {
    return http.get("/api/v1/items/trust/" + itemId)
        .json()
        .get("trustedCounts")
        .get(counter)
        .asDouble();
  }

  private long raw(long itemId, String counter) {
    return http.get("/api/v1/items/trust/" + itemId).json().get("counts").get(counter).asLong();
  }
}
