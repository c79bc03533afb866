package io.hotrank.realtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.compute.BoardComputer;
import io.hotrank.core.score.HotScore;
import io.hotrank.core.score.Weights;
import io.hotrank.item.Counters;
import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.BoardReads;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Live boards against the batch computation of the same definition, on one database engine: a
 * random walk of creates (inside and outside the window), likes, unlikes, dislikes, views, deletes
 * and clock moves past the window's edges; after every step the live board, published from its
 * Redis set, equals the batch board computed by a full scan at the same instant, item for item, in
 * order, with the same scores. Boards of five items keep sets of twenty members, so the walk trims
 * them, thins them below what they need and has them rebuilt.
 */
@TestPropertySource(
    properties = {
      "hotrank.boards[0].name=lv-reddit",
      "hotrank.boards[0].biz=lv",
      "hotrank.boards[0].type=live",
      "hotrank.boards[0].algorithm=reddit",
      "hotrank.boards[0].weights.like=1",
      "hotrank.boards[0].weights.view=0.1",
      "hotrank.boards[0].window=2d",
      "hotrank.boards[0].size=5",
      "hotrank.boards[0].refresh=0 0 0 1 1 *",
      "hotrank.boards[1].name=batch-reddit",
      "hotrank.boards[1].biz=lv",
      "hotrank.boards[1].algorithm=reddit",
      "hotrank.boards[1].weights.like=1",
      "hotrank.boards[1].weights.view=0.1",
      "hotrank.boards[1].window=2d",
      "hotrank.boards[1].size=5",
      "hotrank.boards[1].refresh=0 0 0 1 1 *",
      "hotrank.boards[2].name=lv-decay",
      "hotrank.boards[2].biz=lv",
      "hotrank.boards[2].type=live",
      "hotrank.boards[2].algorithm=decay",
      "hotrank.boards[2].half-life=6h",
      "hotrank.boards[2].weights.like=1",
      "hotrank.boards[2].weights.view=0.05",
      "hotrank.boards[2].weights.dislike=-3",
      "hotrank.boards[2].window=2d",
      "hotrank.boards[2].size=5",
      "hotrank.boards[2].refresh=0 0 0 1 1 *",
      "hotrank.boards[3].name=batch-decay",
      "hotrank.boards[3].biz=lv",
      "hotrank.boards[3].algorithm=decay",
      "hotrank.boards[3].half-life=6h",
      "hotrank.boards[3].weights.like=1",
      "hotrank.boards[3].weights.view=0.05",
      "hotrank.boards[3].weights.dislike=-3",
      "hotrank.boards[3].window=2d",
      "hotrank.boards[3].size=5",
      "hotrank.boards[3].refresh=0 0 0 1 1 *"
    })
public abstract class LiveBoardsContract extends ApiTestSupport {

  private static final Map<String, String> PAIRS =
      Map.of("lv-reddit", "batch-reddit", "lv-decay", "batch-decay");

  @Autowired BoardRegistry registry;
  @Autowired LiveBoards liveBoards;
  @Autowired BoardComputer computer;
  @Autowired MeterRegistry meters;
  @Autowired RealtimeKeys keys;

  /** Ids of this test's items; earlier tests' members are dropped by the rebuild below. */
  private final List<Long> items = new ArrayList<>();

  private final Set<Long> deleted = new HashSet<>();

  @BeforeEach
  void emptyLiveBoards() {
    for (String live : PAIRS.keySet()) {
      Answer rebuilt =
          http.post("/api/v1/admin/boards/" + live + "/rebuild", "", http.adminHeader());
      assertThat(rebuilt.status()).as(rebuilt.body()).isEqualTo(200);
    }
  }

  /**
   * How many steps the walk takes, the last 60 of them thinning the boards. H2 takes the full walk
   * (twice in CI: on one Redis and on a Cluster); the other engines a shorter one, which still goes
   * through trims and thinned rebuilds: the Redis side is the same on every engine.
   */
  protected int steps() {
    return 260;
  }

  /**
   * The walk's likes come from five actors of different weights (docs/design/trust.md): one a year
   * old, one an hour old (a fifth), one trusted half (flagged half way: its standing likes are
   * taken back), a bot, and one the platform never sent. Ids no other test uses; removed after.
   */
  private static final long ACTORS = 900_000;

  private void sendActors() {
    Instant old = clock.instant().minus(Duration.ofDays(365));
    String[] bodies = {
      "{\"createdAt\":\"" + old + "\"}",
      "{\"createdAt\":\"" + clock.instant().minus(Duration.ofHours(1)) + "\"}",
      "{\"createdAt\":\"" + old + "\",\"trust\":0.5}",
      "{\"createdAt\":\"" + old + "\",\"bot\":true}"
    };
    for (int i = 0; i < bodies.length; i++) {
      Answer put = http.put("/api/v1/actors/" + (ACTORS + 1 + i), bodies[i]);
      assertThat(put.status()).as(put.body()).isIn(200, 201);
    }
  }

  @org.junit.jupiter.api.AfterEach
  void forgetTheActors() {
    jdbc.update("DELETE FROM hr_actor WHERE user_id > ? AND user_id <= ?", ACTORS, ACTORS + 5);
  }

  @Test
  void liveBoardsEqualTheBatchComputation_afterEveryStepOfARandomWalk() {
    SplittableRandom random = new SplittableRandom(26);
    long nextId = 1;
    sendActors();
    for (int step = 0; step < steps(); step++) {
      if (step == steps() / 2) {
        Answer flagged =
            http.put(
                "/api/v1/admin/actors/" + (ACTORS + 3) + "/flag",
                "{\"reason\":\"walk\"}",
                http.adminHeader());
        assertThat(flagged.status()).as(flagged.body()).isEqualTo(200);
        for (Map.Entry<String, String> pair : PAIRS.entrySet()) {
          assertSameBoard(pair.getKey(), pair.getValue(), "the flag at step " + step);
        }
      }
      // The last 60 steps create nothing: deletes, unlikes and time thin the boards.
      boolean draining = step >= steps() - 60;
      // Draining: a fifth events, half deletes, the rest the clock.
      int action = draining ? 58 + random.nextInt(42) : random.nextInt(100);
      String did;
      if (action < 40 || (!draining && items.size() < 8)) {
        long id = nextId++;
        // Up to 2.5 days old: a fifth of them starts outside the two-day window.
        Instant created = clock.instant().minusSeconds(random.nextLong(0, 5 * 43_200));
        createItem("lv", id, "item " + id, 7, created);
        items.add(id);
        did = "create " + id;
      } else if (action < 78) {
        did = "events " + postRandomEvents(random);
      } else if ((action < 85 || (draining && action < 90)) && items.size() > deleted.size() + 1) {
        long id = live(random);
        assertThat(http.delete("/api/v1/items/lv/" + id).status()).isEqualTo(204);
        deleted.add(id);
        did = "delete " + id;
      } else {
        Duration by = Duration.ofMinutes(random.nextLong(1, draining ? 6 * 60 : 3 * 60));
        clock.advance(by);
        did = "clock +" + by;
      }
      fold();
      for (Map.Entry<String, String> pair : PAIRS.entrySet()) {
        assertSameBoard(pair.getKey(), pair.getValue(), "step " + step + " (" + did + ")");
      }
    }
    // The walk went through the paths that keep the sets bounded and exact.
    for (String live : PAIRS.keySet()) {
      assertThat(meters.counter("hotrank.live.rebuilds", "board", live, "cause", "thinned").count())
          .as("rebuilds of %s after its set was trimmed, then thinned", live)
          .isPositive();
    }
  }

  private long live(SplittableRandom random) {
    List<Long> live = items.stream().filter(id -> !deleted.contains(id)).toList();
    return live.get(random.nextInt(live.size()));
  }

  private String postRandomEvents(SplittableRandom random) {
    List<String> events = new ArrayList<>();
    String[] types = {"like", "like", "like", "unlike", "dislike", "view", "view"};
    int n = random.nextInt(1, 12);
    for (int i = 0; i < n; i++) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("biz", "lv");
      e.put("itemId", live(random));
      String type = types[random.nextInt(types.length)];
      e.put("type", type);
      if (type.contains("like") && random.nextInt(4) > 0) {
        e.put("userId", ACTORS + random.nextInt(1, 6));
      }
      events.add(HttpJson.json(e));
    }
    Answer answer = http.post("/api/v1/events", "{\"events\":[" + String.join(",", events) + "]}");
    assertThat(answer.status()).as(answer.body()).isEqualTo(202);
    return events.toString();
  }

  private void assertSameBoard(String live, String batch, String step) {
    JsonNode liveBoard = publishAndRead(live);
    JsonNode batchBoard = publishAndRead(batch);
    assertThat(liveBoard.get("computedAt").asString())
        .isEqualTo(batchBoard.get("computedAt").asString());
    List<Long> liveIds = BoardReads.ids(liveBoard);
    assertThat(liveIds)
        .as("%s at %s: %s vs %s", live, step, liveBoard, batchBoard)
        .isEqualTo(BoardReads.ids(batchBoard));
    for (int i = 0; i < liveIds.size(); i++) {
      double expected = batchBoard.get("items").get(i).get("score").asDouble();
      assertThat(liveBoard.get("items").get(i).get("score").asDouble())
          .as("%s at %s, rank %d", live, step, i + 1)
          .isCloseTo(expected, within(Math.abs(expected) * 1e-12));
      assertThat(liveBoard.get("items").get(i).get("counts"))
          .isEqualTo(batchBoard.get("items").get(i).get("counts"));
    }
  }

  private JsonNode publishAndRead(String board) {
    Answer published =
        http.post("/api/v1/admin/boards/" + board + "/recompute", "", http.adminHeader());
    assertThat(published.status()).as(published.body()).isEqualTo(200);
    Answer read = http.get("/api/v1/boards/" + board + "?limit=5");
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    return read.json();
  }

  @Test
  void aChangedDefinition_findsNoDataUnderItsKeys_andIsRebuiltFromTheCounters() {
    for (long id = 1; id <= 30; id++) {
      createItem("lv", id, "item " + id, 7, clock.instant().minusSeconds(600 * id));
      List<String> likes = new ArrayList<>();
      for (long user = 1; user <= id % 7; user++) {
        likes.add(
            "{\"biz\":\"lv\",\"itemId\":" + id + ",\"type\":\"like\",\"userId\":" + user + "}");
      }
      for (long v = 0; v < id % 5; v++) {
        likes.add("{\"biz\":\"lv\",\"itemId\":" + id + ",\"type\":\"view\"}");
      }
      if (!likes.isEmpty()) {
        http.post("/api/v1/events", "{\"events\":[" + String.join(",", likes) + "]}");
      }
    }
    fold();
    BoardDefinition before = registry.require("lv-decay");
    Instant now = clock.instant();
    assertThat(liveBoards.entries(before, now, 0)).isNotEmpty();
    // The same board with views weighing about as much as likes: another order. The weight differs
    // in every run, so that no earlier run's keys lie under the new definition's fingerprint.
    double view = 1.0 + java.util.concurrent.ThreadLocalRandom.current().nextDouble(1e-3);
    Weights heavier = Weights.of(Map.of("like", 1.0, "view", view, "dislike", -3.0));
    BoardDefinition after = redefined(before, heavier, new BoardKind.Live());
    assertThat(LiveStore.fingerprint(after)).isNotEqualTo(LiveStore.fingerprint(before));
    assertThat(liveBoards.applied(after)).isNull();

    List<BoardEntry> rebuilt = liveBoards.entries(after, now, 0);
    List<BoardEntry> scanned =
        computer
            .compute(redefined(before, heavier, new BoardKind.Batch()), now, () -> false)
            .entries();
    assertThat(rebuilt.stream().map(BoardEntry::itemId).toList().subList(0, 5))
        .isEqualTo(scanned.stream().map(BoardEntry::itemId).toList().subList(0, 5));
    assertThat(rebuilt.stream().map(BoardEntry::itemId).toList().subList(0, 5))
        .isNotEqualTo(
            liveBoards.entries(before, now, 0).stream()
                .map(BoardEntry::itemId)
                .toList()
                .subList(0, 5));
    assertThat(liveBoards.applied(after)).isNotNull();
  }

  @Test
  void redisAheadOfTheEventLog_isRebuilt_insteadOfIgnoringEveryFold() {
    for (long id = 1; id <= 8; id++) {
      createItem("lv", id, "item " + id, 7, clock.instant().minusSeconds(60 * id));
    }
    fold();
    assertSameBoard("lv-decay", "batch-decay", "before");
    // As after a restore of the database to an earlier backup: Redis holds a later fold.
    BoardDefinition board = registry.require("lv-decay");
    redis.opsForValue().set(keys.liveApplied(board, LiveStore.fingerprint(board)), "999999999");
    List<String> likes = new ArrayList<>();
    for (int user = 1; user <= 3; user++) {
      likes.add("{\"biz\":\"lv\",\"itemId\":8,\"type\":\"like\",\"userId\":" + user + "}");
    }
    postEvents(likes.toArray(String[]::new));
    assertSameBoard("lv-decay", "batch-decay", "after the fold Redis claimed to have applied");
    assertThat(BoardReads.ids(publishAndRead("lv-decay")).getFirst()).isEqualTo(8L);
  }

  @Test
  void aReaderWhoseClockIsAhead_leavesTheSlowerReadersWindowWhole() {
    Instant now = clock.instant();
    // Item 1 is two minutes inside the window's edge; items 2..4 are young.
    createItem("lv", 1L, "edge", 7, now.minus(Duration.ofDays(2)).plusSeconds(120));
    for (long id = 2; id <= 4; id++) {
      createItem("lv", id, "item " + id, 7, now.minusSeconds(60 * id));
    }
    fold();
    BoardDefinition live = registry.require("lv-decay");
    BoardDefinition batch = registry.require("batch-decay");
    // An instance whose clock is three minutes ahead reads first: item 1 is outside its window.
    assertThat(liveBoards.entries(live, now.plusSeconds(180), 0))
        .extracting(BoardEntry::itemId)
        .doesNotContain(1L);
    // One on time still finds it, as a scan does.
    List<Long> scanned =
        computer.compute(batch, now, () -> false).entries().stream()
            .map(BoardEntry::itemId)
            .toList();
    assertThat(scanned).contains(1L);
    assertThat(liveBoards.entries(live, now, 0))
        .extracting(BoardEntry::itemId)
        .containsExactlyElementsOf(scanned);
  }

  private static BoardDefinition redefined(BoardDefinition b, Weights weights, BoardKind kind) {
    return new BoardDefinition(
        b.name(),
        b.biz(),
        b.algorithm(),
        b.trust() == BoardDefinition.Trust.TRUSTED
            ? HotScore.decay(weights, Duration.ofHours(6)).countingIn(Counters.TRUSTED_UNIT)
            : HotScore.decay(weights, Duration.ofHours(6)),
        b.window(),
        b.size(),
        b.refresh(),
        b.cron(),
        b.refreshInterval(),
        kind,
        weights,
        b.maxPins(),
        b.segmentBy(),
        b.maxPerAuthor(),
        b.scaleBy(),
        b.trust(),
        b.review(),
        null,
        BoardDefinition.Explain.PUBLIC);
  }
}
