package io.hotrank.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.SecondInstance;
import io.hotrank.support.TrustModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Review against a real database, in the API contract's context (its boards {@code review-required}
 * and {@code review-suspicious}, application-test.yml): a held item is off the public board and in
 * the queue with its evidence; decisions show on two instances without a computation; an approved
 * author's next item needs no review; back to pending holds again; a ring of five viewers and a
 * like-storm of new accounts are suspicious, and held on a {@code suspicious} board while honest
 * items are not. One subclass per engine.
 */
public abstract class ReviewContract extends ApiTestSupport {

  private static final String QUEUE = "/api/v1/admin/review";

  @BeforeEach
  void noDecisions() {
    jdbc.update("DELETE FROM hr_review_decision");
    jdbc.update("DELETE FROM hr_review_queue");
    jdbc.update("DELETE FROM hr_audit WHERE action LIKE 'review.%'");
  }

  private void recompute(String board) {
    Answer answer =
        http.post("/api/v1/admin/boards/" + board + "/recompute", "", http.adminHeader());
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
  }

  private static List<Long> ids(HttpJson on, String board) {
    List<Long> ids = new ArrayList<>();
    Answer read = on.get("/api/v1/boards/" + board + "?limit=5");
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    read.json().get("items").forEach(e -> ids.add(e.get("itemId").asLong()));
    return ids;
  }

  private JsonNode queue(String board) {
    Answer listed = http.get(QUEUE + "?board=" + board, http.adminHeader());
    assertThat(listed.status()).as(listed.body()).isEqualTo(200);
    return listed.json();
  }

  private static List<Long> queued(JsonNode listing) {
    List<Long> ids = new ArrayList<>();
    listing.get("queue").forEach(q -> ids.add(q.get("itemId").asLong()));
    return ids;
  }

  private Answer decide(HttpJson on, String path, String status) {
    Answer answer =
        on.put(
            QUEUE + path,
            HttpJson.json(Map.of("status", status, "reason", "checked")),
            on.adminHeader());
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer;
  }

  /** Likes from anonymous users: weight 1 each, so raw and trusted agree. */
  private void likes(String biz, long itemId, int n) {
    String[] events = new String[n];
    for (int i = 0; i < n; i++) {
      events[i] = "{\"biz\":\"" + biz + "\",\"itemId\":" + itemId + ",\"type\":\"like\"}";
    }
    postEvents(events);
  }

  @Test
  void heldItems_waitInTheQueue_andDecisionsShowOnTwoInstances_withoutAComputation() {
    createItem("rvw", 1L, "first", 501, NOW.minusSeconds(60));
    createItem("rvw", 2L, "second", 501, NOW.minusSeconds(60));
    createItem("rvw", 3L, "third", 502, NOW.minusSeconds(60));
    likes("rvw", 1, 5);
    likes("rvw", 2, 4);
    likes("rvw", 3, 3);
    recompute("review-required");
    recompute("review-by-tag");

    assertThat(ids(http, "review-required")).as("everything held until approved").isEmpty();
    assertThat(ids(http, "review-by-tag/segments/t1")).isEmpty();
    JsonNode listing = queue("review-required");
    assertThat(queued(listing)).containsExactly(1L, 2L, 3L);
    JsonNode first = listing.get("queue").get(0);
    assertThat(first.get("wouldRank").asInt()).isEqualTo(1);
    assertThat(first.get("title").asString()).isEqualTo("first");
    assertThat(first.get("evidence").get("interactions").asLong()).isEqualTo(5);
    assertThat(first.get("evidence").get("trustedRatio").asDouble()).isEqualTo(1.0);
    assertThat(first.get("since").asString()).isNotBlank();
    assertThat(listing.get("queued").asLong()).isGreaterThanOrEqualTo(3);

    // Both instances on the test clock: a decision on an author looks for the author's items in
    // each board's window, by the deciding instance's clock.
    try (SecondInstance second = SecondInstance.start(environment, clock)) {
      HttpJson other = second.http();
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(ids(other, "review-required")).isEmpty());

      Answer approved = decide(http, "/rvw/1", "approved");
      assertThat(approved.json().get("status").asString()).isEqualTo("approved");
      assertThat(approved.json().get("subject").asString()).isEqualTo("item");
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () -> {
                assertThat(ids(http, "review-required")).containsExactly(1L);
                assertThat(ids(other, "review-required")).containsExactly(1L);
              });
      assertThat(queued(queue("review-required"))).containsExactly(2L, 3L);

      decide(other, "/rvw/2", "rejected");
      assertThat(queued(queue("review-required"))).containsExactly(3L);
      decide(other, "/authors/502", "approved");
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () -> {
                assertThat(ids(http, "review-required")).containsExactly(1L, 3L);
                assertThat(ids(other, "review-required")).containsExactly(1L, 3L);
                // Every segment board of the author's items, on both instances.
                assertThat(ids(http, "review-by-tag/segments/t2")).containsExactly(1L, 3L);
                assertThat(ids(other, "review-by-tag/segments/t1")).containsExactly(1L, 3L);
              });
      assertThat(queued(queue("review-required"))).isEmpty();

      // The approved author's next item needs no review; the rejected one stays off.
      createItem("rvw", 4L, "fourth", 502, NOW.minusSeconds(30));
      likes("rvw", 4, 6);
      recompute("review-required");
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () -> assertThat(ids(other, "review-required")).containsExactly(4L, 1L, 3L));

      // Back to pending: held again, and queued again.
      decide(other, "/rvw/1", "pending");
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () -> {
                assertThat(ids(http, "review-required")).containsExactly(4L, 3L);
                assertThat(ids(other, "review-required")).containsExactly(4L, 3L);
              });
      assertThat(queued(queue("review-required"))).containsExactly(1L);
    }

    Answer candidates =
        http.get("/api/v1/admin/boards/review-required/candidates", http.adminHeader());
    assertThat(candidates.status()).as(candidates.body()).isEqualTo(200);
    List<String> marked = new ArrayList<>();
    candidates
        .json()
        .get("items")
        .forEach(
            c ->
                marked.add(
                    c.get("entry").get("itemId").asLong()
                        + ":"
                        + c.get("held").asBoolean()
                        + ":"
                        + c.get("status").asString()));
    assertThat(marked)
        .containsExactly(
            "4:false:approved", "1:true:pending", "2:true:rejected", "3:false:approved");
    assertThat(
            jdbc.queryForObject(
                "SELECT COUNT(*) FROM hr_audit WHERE action IN ('review.item', 'review.author')",
                Long.class))
        .isEqualTo(4);
  }

  /**
   * Held items do not crowd approved ones out: a board under review ranks as many candidates again
   * as its size, so the approved items below a top it holds still fill it.
   */
  @Test
  void aRequiredBoard_listsItsApprovedItems_belowTheTopItHolds() {
    for (long id = 1; id <= 20; id++) {
      createItem("rvw", id, "item " + id, 700 + id, NOW.minusSeconds(60));
    }
    List<String> events = new ArrayList<>();
    for (long id = 1; id <= 20; id++) {
      for (int like = 0; like < id; like++) {
        events.add("{\"biz\":\"rvw\",\"itemId\":" + id + ",\"type\":\"like\"}");
      }
    }
    postEvents(events.toArray(String[]::new));
    for (long id = 1; id <= 5; id++) {
      decide(http, "/rvw/" + id, "approved");
    }
    recompute("review-required");
    assertThat(ids(http, "review-required")).containsExactly(5L, 4L, 3L, 2L, 1L);
  }

  @Test
  void aBadDecision_is400NamingTheField_andChangesNothing() {
    createItem("rvw", 1L, "first", 501, NOW.minusSeconds(60));
    Answer bad = http.put(QUEUE + "/rvw/1", "{\"status\":\"maybe\"}", http.adminHeader());
    assertThat(bad.status()).as(bad.body()).isEqualTo(400);
    assertThat(bad.body()).contains("status");
    Answer missing = http.put(QUEUE + "/rvw/99", "{\"status\":\"approved\"}", http.adminHeader());
    assertThat(missing.status()).as(missing.body()).isEqualTo(404);
    Answer badList = http.get(QUEUE + "?status=later", http.adminHeader());
    assertThat(badList.status()).as(badList.body()).isEqualTo(400);
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM hr_review_decision", Long.class)).isZero();
  }

  @Test
  void aRingAndALikeStorm_areSuspicious_andHeldOnASuspiciousBoard_whileHonestItemsShow() {
    long old = TrustModel.users(jdbc, 7);
    long fresh = TrustModel.users(jdbc, 8);
    long freshToo = TrustModel.users(jdbc, 9);
    java.time.Instant yearAgo = NOW.minus(Duration.ofDays(365));
    java.time.Instant hourAgo = NOW.minus(Duration.ofHours(1));
    for (int i = 0; i < 100; i++) {
      actor(old + i, yearAgo);
      actor(fresh + i, hourAgo);
      actor(freshToo + i, hourAgo);
    }
    createItem("rvs", 1L, "honest", 601, NOW.minusSeconds(120));
    createItem("rvs", 2L, "ring", 602, NOW.minusSeconds(120));
    createItem("rvs", 3L, "storm", 603, NOW.minusSeconds(120));
    List<String> events = new ArrayList<>();
    // Honest: 30 likes of 30 old accounts.
    for (int i = 0; i < 30; i++) {
      events.add(event(1, "like", old + i));
    }
    // Ring: five old accounts view it 40 times each; ten others once; ten likes.
    for (int r = 0; r < 5; r++) {
      for (int v = 0; v < 40; v++) {
        events.add(event(2, "view", old + 50 + r));
      }
    }
    for (int i = 0; i < 10; i++) {
      events.add(event(2, "view", old + 60 + i));
      events.add(event(2, "like", old + 60 + i));
    }
    // Storm: 200 likes of accounts created an hour ago.
    for (int i = 0; i < 100; i++) {
      events.add(event(3, "like", fresh + i));
      events.add(event(3, "like", freshToo + i));
    }
    for (int from = 0; from < events.size(); from += 200) {
      postEvents(events.subList(from, Math.min(events.size(), from + 200)).toArray(String[]::new));
    }
    recompute("review-suspicious");

    assertThat(ids(http, "review-suspicious")).containsExactly(1L);
    JsonNode listing = queue("review-suspicious");
    assertThat(queued(listing)).containsExactlyInAnyOrder(2L, 3L);
    for (JsonNode q : listing.get("queue")) {
      JsonNode evidence = q.get("evidence");
      List<String> reasons = new ArrayList<>();
      evidence.get("reasons").forEach(r -> reasons.add(r.asString()));
      if (q.get("itemId").asLong() == 2) {
        assertThat(reasons).contains("concentration");
        assertThat(evidence.get("topActorsShare").asDouble()).isGreaterThan(0.5);
        assertThat(evidence.get("distinctActors").asInt()).isEqualTo(15);
      } else {
        assertThat(reasons).containsExactly("trusted-ratio");
        assertThat(evidence.get("rawPoints").asDouble()).isEqualTo(200);
        assertThat(evidence.get("trustedPoints").asDouble()).isEqualTo(40, within());
        assertThat(evidence.get("newActorsShare").asDouble()).isEqualTo(1.0);
        assertThat(evidence.get("distinctActors").asInt()).isEqualTo(200);
      }
    }

    // Approved, the storm ranks by its trusted likes (200 new accounts weigh 40) over the honest
    // 30; the ring stays held.
    decide(http, "/rvs/3", "approved");
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(() -> assertThat(ids(http, "review-suspicious")).containsExactly(3L, 1L));
  }

  /**
   * On a live board under review (as the shipped {@code article-vetted}), kept by the folds: a
   * storm is held off it by the publish that follows the fold, without a computation, and shows
   * once approved.
   */
  @Test
  void aLiveBoard_holdsAStormAsItFolds_andShowsItOnceApproved() {
    long fresh = TrustModel.users(jdbc, 10);
    long freshToo = TrustModel.users(jdbc, 11);
    java.time.Instant hourAgo = NOW.minus(Duration.ofHours(1));
    for (int i = 0; i < 100; i++) {
      actor(fresh + i, hourAgo);
      actor(freshToo + i, hourAgo);
    }
    // Ids of this engine's own: the engines' contexts share one Redis, and a live board keeps
    // what each of them folded.
    long honest = 1000 + 2L * Math.floorMod(engine().hashCode(), 1000);
    createItem("rvl", honest, "honest", 801, NOW.minusSeconds(120));
    createItem("rvl", honest + 1, "storm", 802, NOW.minusSeconds(120));
    String[] likes = new String[30];
    for (int i = 0; i < likes.length; i++) {
      likes[i] = "{\"biz\":\"rvl\",\"itemId\":" + honest + ",\"type\":\"like\"}";
    }
    postEvents(likes);
    List<String> storm = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      for (long user : new long[] {fresh + i, freshToo + i}) {
        storm.add(
            "{\"biz\":\"rvl\",\"itemId\":"
                + (honest + 1)
                + ",\"type\":\"like\",\"userId\":"
                + user
                + "}");
      }
    }
    postEvents(storm.toArray(String[]::new));
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              assertThat(ids(http, "review-live")).containsExactly(honest);
              assertThat(queued(queue("review-live"))).containsExactly(honest + 1);
            });
    decide(http, "/rvl/" + (honest + 1), "approved");
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () -> assertThat(ids(http, "review-live")).containsExactly(honest + 1, honest));
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-9);
  }

  private void actor(long userId, java.time.Instant createdAt) {
    Answer put = http.put("/api/v1/actors/" + userId, "{\"createdAt\":\"" + createdAt + "\"}");
    assertThat(put.status()).as(put.body()).isIn(200, 201);
  }

  private static String event(long itemId, String type, long userId) {
    return "{\"biz\":\"rvs\",\"itemId\":"
        + itemId
        + ",\"type\":\""
        + type
        + "\",\"userId\":"
        + userId
        + "}";
  }
}
