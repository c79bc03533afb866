package io.hotrank.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.TestData;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Explanations on a board of each kind and algorithm (the {@code expl-*} boards of the test
 * configuration): random items with random interactions, some by new actors (trusted and raw
 * counters differ), some a while ago (window buckets of different weights), a boost, a pin and a
 * block. For every item on every board the parts put into the board's formula as the test writes it
 * give the served score to 1e-9 relative, the rank is the read's, and an item not listed says why.
 * Runs in a Spring context of its own whose clock starts at the real time: a window board's buckets
 * expire at instants computed from the clock, which Redis compares with its own (the shared
 * contexts' clock stands months back, where a window board rebuilt from the log expires its buckets
 * as it writes them).
 */
@TestPropertySource(
    properties = {"hotrank.data-dir=" + TestData.DIR + "explain", "hotrank.test.clock=real"})
class ExplainTest extends ApiTestSupport {

  static {
    TestData.empty("explain");
  }

  /** This class's "now": the real time when it was loaded, to the second. */
  private static final Instant REAL =
      Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

  @BeforeEach
  @Override
  protected void resetData() {
    super.resetData();
    clock.set(REAL);
  }

  private static final List<String> BOARDS =
      List.of("expl-hn", "expl-reddit", "expl-decay", "expl-window", "expl-liked");
  private static final int ITEMS = 8;

  @Override
  protected String engine() {
    return "H2";
  }

  private Answer explain(String board, long itemId) {
    return http.get(
        "/api/v1/boards/" + board + "/items/" + itemId + "/explain", http.adminHeader());
  }

  private Answer put(String board, long itemId, Map<String, Object> body) {
    return http.put(
        "/api/v1/admin/boards/" + board + "/controls/" + itemId,
        HttpJson.json(body),
        http.adminHeader());
  }

  /** The board's read: item id to {rank, score}. */
  private Map<Long, double[]> read(String board) {
    Map<Long, double[]> read = new LinkedHashMap<>();
    for (JsonNode e : http.get("/api/v1/boards/" + board + "?limit=3").json().get("items")) {
      read.put(
          e.get("itemId").asLong(),
          new double[] {e.get("rank").asInt(), e.get("score").asDouble()});
    }
    return read;
  }

  @Test
  void thePartsGiveTheServedScore_onEveryKindAndAlgorithm_withControls() {
    Random random = new Random(4301);
    // Items 1 and 2 by one author (expl-decay lists one entry of an author); item 8 two days old,
    // outside the batch boards' window of a day.
    for (long id = 1; id <= ITEMS; id++) {
      Instant created =
          id == ITEMS ? REAL.minus(Duration.ofDays(2)) : REAL.minusSeconds(random.nextInt(20_000));
      createItem("expl", id, "Item " + id, id <= 2 ? 7 : 100 + id, created);
    }
    List<String> events = new ArrayList<>();
    String[] types = {"like", "like", "like", "view", "comment", "share", "dislike"};
    for (long id = 1; id <= ITEMS; id++) {
      int n = 3 + random.nextInt(12) + (id <= 2 ? 20 : 0);
      for (int i = 0; i < n; i++) {
        StringBuilder event =
            new StringBuilder("{\"biz\":\"expl\",\"itemId\":")
                .append(id)
                .append(",\"type\":\"")
                .append(types[random.nextInt(types.length)])
                .append('"');
        if (random.nextBoolean()) {
          event.append(",\"userId\":").append(1 + random.nextInt(40)); // a new actor: weighed less
        }
        // Within the last 40 minutes: several buckets of the window board.
        event.append(",\"at\":\"").append(REAL.minusSeconds(random.nextInt(2400))).append("\"}");
        events.add(event.toString());
      }
    }
    postEvents(events.toArray(String[]::new));
    assertThat(put("expl-hn", 3, Map.of("action", "boost", "factor", 2.5, "reason", "r")).status())
        .isEqualTo(200);
    assertThat(put("expl-hn", 6, Map.of("action", "pin", "position", 1, "reason", "r")).status())
        .isEqualTo(200);
    assertThat(put("expl-hn", 4, Map.of("action", "block", "reason", "spam")).status())
        .isEqualTo(200);
    assertThat(
            put("expl-window", 5, Map.of("action", "boost", "factor", 0.5, "reason", "r")).status())
        .isEqualTo(200);
    for (String board : List.of("expl-hn", "expl-decay")) {
      Answer answer = http.admin("/api/v1/admin/boards/" + board + "/recompute");
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    }
    // The realtime boards publish by themselves, within a second or two of the fold.
    Awaitility.await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(
            () -> {
              for (String board : List.of("expl-reddit", "expl-window", "expl-liked")) {
                assertThat(read(board)).as(board).hasSize(3);
                for (long id = 1; id <= ITEMS; id++) {
                  JsonNode e = explain(board, id).json();
                  if (!e.get("score").isNull()) {
                    assertThat(e.get("current").asBoolean())
                        .as("%s item %d: %s", board, id, e)
                        .isTrue();
                  }
                }
              }
            });

    Map<String, Integer> statuses = new HashMap<>();
    for (String board : BOARDS) {
      Map<Long, double[]> read = read(board);
      for (long id = 1; id <= ITEMS; id++) {
        Answer answer = explain(board, id);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        JsonNode e = answer.json();
        String what = board + " item " + id + ": " + e;
        statuses.merge(board + ":" + e.get("status").asString(), 1, Integer::sum);
        assertThat(e.get("board").asString()).isEqualTo(board);
        assertThat(e.get("item").get("id").asLong()).isEqualTo(id);

        double base = recompute(e, what);
        assertThat(e.get("base").asDouble()).as(what).isCloseTo(base, relative(base));
        double explained = withControl(e, base, board.equals("expl-reddit"));
        assertThat(e.get("explained").asDouble())
            .as(what)
            .isCloseTo(explained, relative(explained));

        double[] served = read.get(id);
        if (served != null) {
          assertThat(e.get("status").asString()).as(what).isEqualTo("listed");
          assertThat(e.get("rank").asInt()).as(what).isEqualTo((int) served[0]);
          assertThat(e.get("score").asDouble()).as(what).isEqualTo(served[1]);
        } else {
          assertThat(e.get("status").asString()).as(what).isNotEqualTo("listed");
          assertThat(e.get("rank").isNull()).as(what).isTrue();
        }
        if (!e.get("score").isNull()) {
          // The parts reproduce the score the board serves.
          double score = e.get("score").asDouble();
          assertThat(explained).as(what).isCloseTo(score, relative(score));
          assertThat(e.get("current").asBoolean()).as(what).isTrue();
        }
      }
    }
    assertThat(explain("expl-hn", 4).json().get("status").asString()).isEqualTo("blocked");
    assertThat(explain("expl-hn", 4).json().get("control").get("reason").asString())
        .isEqualTo("spam");
    assertThat(explain("expl-hn", ITEMS).json().get("status").asString())
        .isEqualTo("not-in-window");
    // The public sees what the board read shows: no block, no reason, no operator.
    JsonNode anonymous = http.get("/api/v1/boards/expl-hn/items/4/explain").json();
    assertThat(anonymous.get("status").asString()).isEqualTo("not-listed");
    assertThat(anonymous.get("control").isNull()).isTrue();
    assertThat(anonymous.get("reason").asString()).doesNotContain("spam");
    JsonNode anonymousPin = http.get("/api/v1/boards/expl-hn/items/6/explain").json();
    assertThat(anonymousPin.get("control").get("action").asString()).isEqualTo("pin");
    assertThat(anonymousPin.get("control").get("reason").isNull()).isTrue();
    assertThat(anonymousPin.get("control").get("actor").isNull()).isTrue();
    JsonNode pinned = explain("expl-hn", 6).json();
    assertThat(pinned.get("status").asString()).isEqualTo("listed");
    assertThat(pinned.get("rank").asInt()).isEqualTo(1);
    assertThat(pinned.get("control").get("action").asString()).isEqualTo("pin");
    // Items 1 and 2 are the hottest by far, by one author: expl-decay lists the better one only.
    Map<Long, double[]> decay = read("expl-decay");
    long shown = decay.containsKey(1L) ? 1 : 2;
    assertThat(decay).containsKey(shown).doesNotContainKey(3 - shown);
    assertThat(explain("expl-decay", 3 - shown).json().get("status").asString())
        .isEqualTo("capped-by-author");
    // Every board has items it lists and items below its cut.
    for (String board : BOARDS) {
      assertThat(statuses).containsKey(board + ":listed").containsKey(board + ":below-cut");
    }
  }

  /** The board's score of the item before its control, from the parts alone. */
  private static double recompute(JsonNode e, String what) {
    double points = 0;
    for (JsonNode count : e.get("counts")) {
      double ranked =
          e.get("trust").asString().equals("trusted")
              ? count.get("trusted").asDouble()
              : count.get("raw").asDouble();
      assertThat(count.get("points").asDouble())
          .as(what)
          .isCloseTo(count.get("weight").asDouble() * ranked, within(1e-9));
      points += count.get("points").asDouble();
    }
    switch (e.get("kind").asString()) {
      case "window" -> {
        double sum = 0;
        for (JsonNode bucket : e.get("buckets")) {
          sum += bucket.get("events").asDouble() * bucket.get("weight").asDouble();
        }
        // Rounded to nine significant digits, as a window board rounds its sums.
        return sum == 0
            ? 0
            : new java.math.BigDecimal(sum).round(new java.math.MathContext(9)).doubleValue();
      }
      case "leaderboard" -> {
        return points;
      }
      default -> {
        JsonNode formula = e.get("formula");
        Map<String, Double> terms = new HashMap<>();
        formula
            .get("terms")
            .forEach(t -> terms.put(t.get("symbol").asString(), t.get("value").asDouble()));
        double hours =
            Math.max(
                    0,
                    Duration.between(
                            Instant.parse(e.get("item").get("createdAt").asString()),
                            Instant.parse(e.get("computedAt").asString()))
                        .toMillis())
                / 3.6e6;
        double score =
            switch (e.get("algorithm").asString()) {
              case "hacker-news" -> {
                assertThat(terms.get("P")).as(what).isCloseTo(points, within(1e-9));
                assertThat(terms.get("T")).as(what).isCloseTo(hours, within(1e-9));
                yield (terms.get("P") - 1) / Math.pow(terms.get("T") + 2, terms.get("G"));
              }
              case "decay" -> {
                assertThat(terms.get("P")).as(what).isCloseTo(points, within(1e-9));
                assertThat(terms.get("T")).as(what).isCloseTo(hours, within(1e-9));
                yield terms.get("P") * Math.pow(2, -terms.get("T") / terms.get("H"));
              }
              case "reddit" -> {
                assertThat(terms.get("X")).as(what).isCloseTo(points, within(1e-9));
                double x = terms.get("X");
                yield Math.round(
                        (Math.signum(x) * Math.log10(Math.max(Math.abs(x), 1))
                                + terms.get("S") / 45000)
                            * 1e7)
                    / 1e7;
              }
              default -> throw new AssertionError("unknown algorithm in " + what);
            };
        assertThat(formula.get("score").asDouble()).as(what).isCloseTo(score, relative(score));
        return score;
      }
    }
  }

  private static double withControl(JsonNode e, double base, boolean logarithmic) {
    JsonNode control = e.get("control");
    if (control.isNull() || !control.get("action").asString().equals("boost")) {
      return base;
    }
    double factor = control.get("factor").asDouble();
    if (logarithmic) {
      return base + Math.log10(factor);
    }
    return base >= 0 ? base * factor : base / factor;
  }

  private static org.assertj.core.data.Offset<Double> relative(double value) {
    return within(Math.max(1e-9 * Math.abs(value), 1e-12));
  }

  @Test
  void aBoardSaysWhoMayAsk_andUnknownItemsAreNotFound() {
    createItem("expl", 1L, "One", 1, REAL.minusSeconds(60));
    http.admin("/api/v1/admin/boards/expl-off/recompute");
    http.admin("/api/v1/admin/boards/expl-hn/recompute");

    Answer off = http.get("/api/v1/boards/expl-off/items/1/explain", http.adminHeader());
    assertThat(off.status()).isEqualTo(404);
    assertThat(off.json().get("type").asString()).endsWith("explain-off");

    Answer anonymous = http.get("/api/v1/boards/expl-reddit/items/1/explain");
    assertThat(anonymous.status()).isEqualTo(401);
    // The live board publishes by itself within a second or two.
    Awaitility.await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(
            () -> {
              Answer operator = explain("expl-reddit", 1);
              assertThat(operator.status()).as(operator.body()).isEqualTo(200);
            });

    Answer open = http.get("/api/v1/boards/expl-hn/items/1/explain");
    assertThat(open.status()).as(open.body()).isEqualTo(200);
    assertThat(open.json().get("status").asString()).isEqualTo("listed");

    Answer missing = http.get("/api/v1/boards/expl-hn/items/99/explain");
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().get("type").asString()).endsWith("item-not-found");
    assertThat(http.get("/api/v1/boards/nope/items/1/explain").status()).isEqualTo(404);
    Answer segmentOfPlain = http.get("/api/v1/boards/expl-hn/segments/t1/items/1/explain");
    assertThat(segmentOfPlain.status()).isEqualTo(400);
    // A second chance would skip an author cap's look-up: refused there, naming the action.
    Answer chance = put("expl-decay", 1, Map.of("action", "second-chance", "reason", "r"));
    assertThat(chance.status()).as(chance.body()).isEqualTo(400);
    assertThat(chance.body()).contains("action").contains("max-per-author");
  }

  @Test
  void aHeldItemSaysSo_onABoardUnderReview() {
    createItem("rvw", 1L, "Held", 1, REAL.minusSeconds(60));
    postEvents("{\"biz\":\"rvw\",\"itemId\":1,\"type\":\"like\"}");
    Answer recomputed = http.admin("/api/v1/admin/boards/review-required/recompute");
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);

    JsonNode e = explain("review-required", 1).json();

    assertThat(e.get("status").asString()).as(e.toString()).isEqualTo("held");
    assertThat(e.get("current").asBoolean()).isTrue();
    // The public is told it is kept off, not by what.
    JsonNode anonymous = http.get("/api/v1/boards/review-required/items/1/explain").json();
    assertThat(anonymous.get("status").asString()).isEqualTo("not-listed");
  }
}
