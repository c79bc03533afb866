package io.hotrank.board;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.item.Item;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The semantics of operators' controls against a model written another way: named cases for each
 * rule, then random boards, candidates and controls (ties, expired controls, pins beyond the end,
 * items that do not exist) where the function must agree with the model entry for entry.
 */
class ControlsAppliedTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  // ------------------------------------------------------------------ fixtures

  private static BoardEntry entry(long id, double score, long createdAtSecond) {
    return new BoardEntry(
        0,
        "news",
        id,
        score,
        "item " + id,
        1,
        Instant.ofEpochSecond(createdAtSecond),
        new Item.Counts(0, 0, 0, 0, 0, 0));
  }

  /** Entries with scores 10, 9, 8... for ids 1, 2, 3... */
  private static List<BoardEntry> ranked(int n) {
    List<BoardEntry> list = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      list.add(entry(i, 11 - i, 1000));
    }
    return list;
  }

  private static BoardControl pin(long id, int position, long setAtSecond) {
    return control(id, ControlAction.PIN, position, null, null, setAtSecond);
  }

  private static BoardControl boost(long id, double factor) {
    return control(id, ControlAction.BOOST, null, factor, null, 0);
  }

  private static BoardControl block(long id) {
    return control(id, ControlAction.BLOCK, null, null, null, 0);
  }

  private static BoardControl control(
      long id,
      ControlAction action,
      Integer position,
      Double factor,
      Instant expiresAt,
      long setAtSecond) {
    return new BoardControl(
        "b",
        id,
        action,
        position,
        factor,
        expiresAt,
        "why",
        "alice",
        Instant.ofEpochSecond(setAtSecond));
  }

  private static List<BoardEntry> apply(
      int size, List<BoardEntry> candidates, List<BoardControl> controls) {
    return ControlsApplied.apply(
        size, false, candidates, controls, NOW, List.of(), ids -> Map.of());
  }

  private static List<Long> ids(List<BoardEntry> entries) {
    return entries.stream().map(BoardEntry::itemId).toList();
  }

  private static List<Integer> ranks(List<BoardEntry> entries) {
    return entries.stream().map(BoardEntry::rank).toList();
  }

  // ------------------------------------------------------------------ named cases

  @Test
  void aPin_isShownAtItsPosition_andTheOthersMoveDown() {
    List<BoardEntry> board = apply(5, ranked(8), List.of(pin(6, 2, 0)));
    assertThat(ids(board)).containsExactly(1L, 6L, 2L, 3L, 4L);
    assertThat(ranks(board)).containsExactly(1, 2, 3, 4, 5);
    assertThat(board.get(1).control())
        .isEqualTo(new BoardEntry.Applied(ControlAction.PIN, 2, null, 5.0));
    assertThat(board.get(1).score()).isEqualTo(5.0);
  }

  @Test
  void aSecondChance_isLookedUpAgain_evenAsACandidate_andRanksByItsNewScore() {
    BoardControl chance = control(8, ControlAction.SECOND_CHANCE, null, null, null, 0);
    List<Set<Long>> asked = new ArrayList<>();
    List<BoardEntry> board =
        ControlsApplied.apply(
            5,
            false,
            ranked(8),
            List.of(chance),
            NOW,
            List.of(),
            ids -> {
              asked.add(ids);
              return Map.of(8L, entry(8, 9.5, 1000)); // scored as if created when given
            });
    assertThat(asked).containsExactly(Set.of(8L));
    assertThat(ids(board)).containsExactly(1L, 8L, 2L, 3L, 4L);
    assertThat(board.get(1).control())
        .isEqualTo(new BoardEntry.Applied(ControlAction.SECOND_CHANCE, null, null, 9.5));
    assertThat(board.get(1).score()).isEqualTo(9.5);

    // Its control gone, the entry it shaped is looked up again, by its creation; not found (out of
    // the window), it is not listed.
    List<Set<Long>> again = new ArrayList<>();
    List<BoardEntry> after =
        ControlsApplied.apply(
            5,
            false,
            board,
            List.of(),
            NOW,
            List.of(),
            ids -> {
              again.add(ids);
              return Map.of();
            });
    assertThat(again).containsExactly(Set.of(8L));
    assertThat(ids(after)).containsExactly(1L, 2L, 3L, 4L);
  }

  @Test
  void aSecondChance_countsFromWhenItWasGiven_atMostTheScoringInstant() {
    BoardControl chance =
        control(8, ControlAction.SECOND_CHANCE, null, null, null, NOW.getEpochSecond() - 60);
    assertThat(ControlsApplied.scoredCreation(chance, 5, NOW))
        .isEqualTo(NOW.minusSeconds(60).toEpochMilli());
    assertThat(ControlsApplied.scoredCreation(chance, 5, NOW.minusSeconds(120)))
        .isEqualTo(NOW.minusSeconds(120).toEpochMilli());
    assertThat(ControlsApplied.scoredCreation(boost(8, 2), 5, NOW)).isEqualTo(5);
    assertThat(ControlsApplied.scoredCreation(null, 5, NOW)).isEqualTo(5);
  }

  @Test
  void pinsAskingTheSamePosition_areOrderedByWhenTheyWereSet() {
    List<BoardEntry> board = apply(5, ranked(8), List.of(pin(7, 2, 20), pin(8, 2, 10)));
    assertThat(ids(board)).containsExactly(1L, 8L, 7L, 2L, 3L);
  }

  @Test
  void aPinBeyondTheListsEnd_goesAtTheEnd() {
    List<BoardEntry> board = apply(10, ranked(3), List.of(pin(1, 9, 0)));
    assertThat(ids(board)).containsExactly(2L, 3L, 1L);
  }

  @Test
  void aBoost_multipliesTheScore_andReorders() {
    List<BoardEntry> board = apply(3, ranked(5), List.of(boost(3, 2.0)));
    assertThat(ids(board)).containsExactly(3L, 1L, 2L);
    assertThat(board.getFirst().score()).isEqualTo(16.0);
    assertThat(board.getFirst().control())
        .isEqualTo(new BoardEntry.Applied(ControlAction.BOOST, null, 2.0, 8.0));
  }

  @Test
  void aBoostOfALogarithmicScore_addsLog10OfTheFactor() {
    List<BoardEntry> board =
        ControlsApplied.apply(
            3, true, ranked(5), List.of(boost(3, 100.0)), NOW, List.of(), ids -> Map.of());
    assertThat(ids(board)).containsExactly(3L, 1L, 2L);
    assertThat(board.getFirst().score()).isEqualTo(10.0);
  }

  @Test
  void aFactorBelowOne_demotes() {
    List<BoardEntry> board = apply(4, ranked(5), List.of(boost(1, 0.5)));
    assertThat(ids(board)).containsExactly(2L, 3L, 4L, 5L);
  }

  @Test
  void aBoostOfANegativeScore_liftsIt_andADemotionLowersIt_whileZeroStays() {
    // Hacker News: (P-1)/(T+2)^G is negative below one point and 0 at one point.
    List<BoardEntry> candidates =
        List.of(entry(1, 0.5, 0), entry(2, 0.0, 0), entry(3, -0.2, 0), entry(4, -0.4, 0));
    List<BoardEntry> lifted = apply(4, candidates, List.of(boost(4, 4.0)));
    assertThat(ids(lifted)).containsExactly(1L, 2L, 4L, 3L);
    assertThat(lifted.get(2).score()).isEqualTo(-0.1);

    List<BoardEntry> lowered = apply(4, candidates, List.of(boost(3, 0.25)));
    assertThat(ids(lowered)).containsExactly(1L, 2L, 4L, 3L);
    assertThat(lowered.get(3).score()).isEqualTo(-0.8);

    List<BoardEntry> zero = apply(4, candidates, List.of(boost(2, 10.0)));
    assertThat(ids(zero)).containsExactly(1L, 2L, 3L, 4L);
    assertThat(zero.get(1).score()).isZero();
  }

  @Test
  void aBoostOfNegativeRedditVotes_liftsTheItem() {
    // -log10(100) + log10(10) = -1: the downvotes' weight divided by the factor.
    List<BoardEntry> board =
        ControlsApplied.apply(
            2,
            true,
            List.of(entry(1, -1.5, 0), entry(2, -2.0, 0)),
            List.of(boost(2, 10.0)),
            NOW,
            List.of(),
            ids -> Map.of());
    assertThat(ids(board)).containsExactly(2L, 1L);
    assertThat(board.getFirst().score()).isEqualTo(-1.0);
  }

  @Test
  void aBlockedItem_isNeverListed_andTheBoardStaysFull() {
    List<BoardEntry> board = apply(3, ranked(5), List.of(block(1), block(3)));
    assertThat(ids(board)).containsExactly(2L, 4L, 5L);
    assertThat(ranks(board)).containsExactly(1, 2, 3);
  }

  @Test
  void aPinOfAnItemTheComputationDidNotSelect_isLookedUpAndShown() {
    Set<Long> asked = new HashSet<>();
    List<BoardEntry> board =
        ControlsApplied.apply(
            3,
            false,
            ranked(3),
            List.of(pin(42, 1, 0), pin(43, 2, 0)),
            NOW,
            List.of(),
            ids -> {
              asked.addAll(ids);
              return Map.of(42L, entry(42, 0.1, 5)); // 43 is deleted
            });
    assertThat(asked).containsExactlyInAnyOrder(42L, 43L);
    assertThat(ids(board)).containsExactly(42L, 1L, 2L);
  }

  @Test
  void aBoostedItemTheComputationDidNotSelect_isListedOnlyIfItRanksWithinTheBoard() {
    Function<Set<Long>, Map<Long, BoardEntry>> lookup =
        ids -> Map.of(50L, entry(50, 4, 5), 51L, entry(51, 1, 5));
    List<BoardEntry> board =
        ControlsApplied.apply(
            3, false, ranked(3), List.of(boost(50, 3), boost(51, 2)), NOW, List.of(), lookup);
    assertThat(ids(board)).containsExactly(50L, 1L, 2L);
  }

  @Test
  void anExpiredControl_isIgnored_andItsItemNotLookedUp() {
    BoardControl lapsed = control(1, ControlAction.BLOCK, null, null, NOW, 0);
    BoardControl lapsedPin = control(9, ControlAction.PIN, 1, null, NOW.minusSeconds(1), 0);
    BoardControl live = control(2, ControlAction.BLOCK, null, null, NOW.plusMillis(1), 0);
    List<BoardEntry> board =
        ControlsApplied.apply(
            3,
            false,
            ranked(5),
            List.of(lapsed, lapsedPin, live),
            NOW,
            List.of(),
            ids -> {
              throw new AssertionError("looked up " + ids);
            });
    assertThat(ids(board)).containsExactly(1L, 3L, 4L);
  }

  @Test
  void applyingOtherControlsToItsOwnOutput_undoesTheOldOnes() {
    List<BoardEntry> all = ranked(10);
    List<BoardControl> first = List.of(boost(9, 5), pin(10, 1, 0), block(2));
    List<BoardControl> second = List.of(boost(3, 0.1), pin(4, 5, 0));
    List<BoardEntry> once = apply(10, all, first);
    // The block's item is gone from the output: a re-publish names it to be looked up again.
    List<BoardEntry> again =
        ControlsApplied.apply(
            10,
            false,
            once,
            second,
            NOW,
            List.of(2L),
            ids -> {
              Map<Long, BoardEntry> found = new HashMap<>();
              ids.forEach(id -> found.put(id, all.get((int) (id - 1))));
              return found;
            });
    assertThat(again).isEqualTo(apply(10, all, second));
  }

  // ------------------------------------------------------------------ against the model

  @Test
  void randomBoards_agreeWithTheModel() {
    Random random = new Random(24);
    for (int round = 0; round < 3000; round++) {
      int size = 1 + random.nextInt(8);
      int universe = random.nextInt(16);
      Map<Long, BoardEntry> items = new LinkedHashMap<>();
      for (long id = 1; id <= universe; id++) {
        items.put(id, entry(id, random.nextInt(6) - 1, random.nextInt(3)));
      }
      List<BoardEntry> sorted = new ArrayList<>(items.values());
      sorted.sort(ControlsAppliedTest::modelOrder);
      List<BoardEntry> candidates =
          new ArrayList<>(sorted.subList(0, random.nextInt(sorted.size() + 1)));
      Map<Long, BoardControl> controls = new LinkedHashMap<>();
      int n = random.nextInt(7);
      for (int i = 0; i < n; i++) {
        long id = 1 + random.nextInt(universe + 3); // some name no item
        ControlAction action = ControlAction.values()[random.nextInt(3)];
        Instant expires =
            switch (random.nextInt(4)) {
              case 0 -> NOW.minusSeconds(random.nextInt(2));
              case 1 -> NOW.plusSeconds(1);
              default -> null;
            };
        controls.put(
            id,
            control(
                id,
                action,
                action == ControlAction.PIN ? 1 + random.nextInt(size + 2) : null,
                action == ControlAction.BOOST
                    ? new double[] {0.1, 0.5, 2, 10}[random.nextInt(4)]
                    : null,
                expires,
                random.nextInt(3)));
      }
      boolean logarithmic = random.nextBoolean();
      List<Long> released = new ArrayList<>();
      if (random.nextBoolean() && universe > 0) {
        released.add(1L + random.nextInt(universe));
      }
      Set<Long> candidateIds = new HashSet<>(ids(candidates));
      List<Set<Long>> calls = new ArrayList<>();
      List<BoardEntry> actual =
          ControlsApplied.apply(
              size,
              logarithmic,
              candidates,
              List.copyOf(controls.values()),
              NOW,
              released,
              ids -> {
                calls.add(ids);
                Map<Long, BoardEntry> found = new HashMap<>();
                ids.forEach(
                    id -> {
                      if (items.containsKey(id)) {
                        found.put(id, items.get(id));
                      }
                    });
                return found;
              });
      List<BoardEntry> expected =
          model(size, logarithmic, candidates, controls.values(), released, items);
      String context =
          "round " + round + " size " + size + " candidates " + ids(candidates) + " " + controls;
      assertThat(actual).as(context).isEqualTo(expected);
      assertThat(calls).as(context).hasSizeLessThanOrEqualTo(1);
      calls.forEach(
          ids -> assertThat(ids).as(context).noneMatch(candidateIds::contains).isNotEmpty());
    }
  }

  /** Score desc, newer first, larger id first, written out. */
  private static int modelOrder(BoardEntry a, BoardEntry b) {
    if (a.score() != b.score()) {
      return a.score() > b.score() ? -1 : 1;
    }
    if (!a.createdAt().equals(b.createdAt())) {
      return a.createdAt().isAfter(b.createdAt()) ? -1 : 1;
    }
    return Long.compare(b.itemId(), a.itemId());
  }

  /**
   * The model: find each pin's rank first (asked position, pushed down past earlier pins, then
   * pulled up from the end so that every pin fits), then fill the free ranks with the rest in
   * order.
   */
  private static List<BoardEntry> model(
      int size,
      boolean logarithmic,
      List<BoardEntry> candidates,
      Collection<BoardControl> controls,
      List<Long> released,
      Map<Long, BoardEntry> items) {
    Map<Long, BoardControl> live = new HashMap<>();
    for (BoardControl c : controls) {
      if (c.expiresAt() == null || c.expiresAt().isAfter(NOW)) {
        live.put(c.itemId(), c);
      }
    }
    Map<Long, BoardEntry> shown = new LinkedHashMap<>();
    candidates.forEach(e -> shown.put(e.itemId(), e));
    for (BoardControl c : live.values()) {
      if (c.action() != ControlAction.BLOCK && items.containsKey(c.itemId())) {
        shown.putIfAbsent(c.itemId(), items.get(c.itemId()));
      }
    }
    for (Long id : released) {
      boolean blocked = live.containsKey(id) && live.get(id).action() == ControlAction.BLOCK;
      if (!blocked && items.containsKey(id)) {
        shown.putIfAbsent(id, items.get(id));
      }
    }
    List<BoardEntry> rest = new ArrayList<>();
    List<BoardControl> pins = new ArrayList<>();
    Map<Long, BoardEntry> pinned = new HashMap<>();
    for (BoardEntry e : shown.values()) {
      BoardControl c = live.get(e.itemId());
      if (c == null) {
        rest.add(e);
      } else if (c.action() == ControlAction.BOOST) {
        // A boost scales the distance above 0 up, or the distance below 0 down, by the factor.
        double magnitude = Math.abs(e.score());
        double score =
            logarithmic
                ? e.score() + Math.log10(c.factor())
                : e.score() < 0 ? -(magnitude / c.factor()) : magnitude * c.factor();
        rest.add(
            e.withControl(
                score, new BoardEntry.Applied(ControlAction.BOOST, null, c.factor(), e.score())));
      } else if (c.action() == ControlAction.PIN) {
        pins.add(c);
        pinned.put(
            e.itemId(),
            e.withControl(
                e.score(),
                new BoardEntry.Applied(ControlAction.PIN, c.position(), null, e.score())));
      }
    }
    rest.sort(ControlsAppliedTest::modelOrder);
    pins.sort(
        (a, b) ->
            a.position().equals(b.position())
                ? a.setAt().equals(b.setAt())
                    ? Long.compare(a.itemId(), b.itemId())
                    : a.setAt().compareTo(b.setAt())
                : Integer.compare(a.position(), b.position()));
    if (pins.size() > size) {
      pins = pins.subList(0, size);
    }
    int n = Math.min(size, rest.size() + pins.size());
    int[] rank = new int[pins.size()];
    for (int i = 0; i < pins.size(); i++) {
      rank[i] = i == 0 ? pins.get(i).position() : Math.max(pins.get(i).position(), rank[i - 1] + 1);
    }
    for (int i = pins.size() - 1; i >= 0; i--) {
      rank[i] = Math.min(rank[i], i == pins.size() - 1 ? n : rank[i + 1] - 1);
    }
    BoardEntry[] slots = new BoardEntry[n];
    for (int i = 0; i < pins.size(); i++) {
      slots[rank[i] - 1] = pinned.get(pins.get(i).itemId());
    }
    int next = 0;
    for (int i = 0; i < n; i++) {
      if (slots[i] == null) {
        slots[i] = rest.get(next++);
      }
    }
    List<BoardEntry> board = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      board.add(slots[i].withRank(i + 1));
    }
    return board;
  }
}
