package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.ControlsApplied;
import io.hotrank.item.Item;
import io.hotrank.item.ItemCards;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The candidates of a board whose Redis data is scored items (window boards, leaderboards): its top
 * from Redis, over-fetched until {@code size} live items plus one per live operator control and a
 * reserve ({@link ControlsApplied#RESERVE}) are found or Redis has no more, so that blocks and pins
 * leave the board full. A controlled item outside that top is looked up by the publisher. Ties rank
 * newest first, then by the highest id. Thread-safe.
 */
final class ScoredEntries {

  /** Over-fetch rounds when deleted items leave a page short. */
  private static final int FETCH_ROUNDS = 4;

  private final PublishedCards cards;

  ScoredEntries(PublishedCards cards) {
    this.cards = cards;
  }

  /**
   * How many members a shard or a window snapshot keeps: the board's size plus as many again, the
   * deeper read of a board capped per author ({@link AuthorCap}), and on a board under review the
   * candidates it ranks beyond that for the items review holds ({@link ControlsApplied#reserve}); a
   * scaled window board's snapshots keep every member ({@link ScaledWindows}).
   */
  static int keep(BoardDefinition board) {
    if (board.scaleBy() != null) {
      return ScaledBoards.EVERY_MEMBER;
    }
    int held = ControlsApplied.reserve(board) - ControlsApplied.RESERVE;
    return 2 * board.size() + AuthorCap.extra(board) + held;
  }

  /**
   * The board's candidates.
   *
   * @param top reads the board's best {@code n} items from Redis
   * @param gone told of the items of a top that no longer exist, when a kind must drop them
   */
  List<BoardEntry> entries(
      BoardDefinition board,
      int controls,
      IntFunction<List<Scored>> top,
      Consumer<List<Long>> gone) {
    int wanted = board.size() + controls + ControlsApplied.reserve(board);
    int fetch = Math.max(keep(board), wanted);
    List<BoardEntry> entries = List.of();
    for (int round = 0; round < FETCH_ROUNDS; round++) {
      List<Scored> scored = top.apply(fetch);
      entries = cards(board, scored, gone);
      if (entries.size() >= wanted || scored.size() < fetch) {
        break;
      }
      fetch *= 4;
    }
    return entries.size() > wanted ? entries.subList(0, wanted) : entries;
  }

  private List<BoardEntry> cards(
      BoardDefinition board, List<Scored> top, Consumer<List<Long>> goneItems) {
    Map<Long, ItemCards.Card> found = cards.cards(board, top.stream().map(Scored::itemId).toList());
    List<Long> gone =
        top.stream().map(Scored::itemId).filter(id -> !found.containsKey(id)).toList();
    if (!gone.isEmpty()) {
      goneItems.accept(gone);
    }
    return ranked(board, top, found);
  }

  /**
   * The scored items that have a card, as board entries ranked from 1: by score (rounded), then the
   * younger item, then the larger id.
   */
  static List<BoardEntry> ranked(
      BoardDefinition board, List<Scored> top, Map<Long, ItemCards.Card> found) {
    record Ranked(Scored scored, ItemCards.Card card) {}
    List<Ranked> live = new ArrayList<>();
    for (Scored s : top) {
      ItemCards.Card card = found.get(s.itemId());
      if (card != null) {
        live.add(new Ranked(new Scored(s.itemId(), rounded(s.score())), card));
      }
    }
    live.sort(
        Comparator.comparingDouble((Ranked r) -> r.scored().score())
            .reversed()
            .thenComparing(r -> r.card().createdAtMillis(), Comparator.reverseOrder())
            .thenComparing(r -> r.card().itemId(), Comparator.reverseOrder()));
    List<BoardEntry> entries = new ArrayList<>(live.size());
    for (Ranked r : live) {
      entries.add(
          new BoardEntry(
              entries.size() + 1,
              board.biz(),
              r.card().itemId(),
              r.scored().score(),
              r.card().title(),
              r.card().authorId(),
              Instant.ofEpochMilli(r.card().createdAtMillis()),
              Item.Counts.of(r.card().counts())));
    }
    return entries;
  }

  /**
   * Sums of decayed weights carry floating-point noise (0.05 + 0.1 is not 0.15); rounded to nine
   * significant digits, equal sums tie as they should and fall to the createdAt order.
   */
  static double rounded(double score) {
    if (score == 0 || !Double.isFinite(score)) {
      return score;
    }
    return new BigDecimal(score).round(new MathContext(9)).doubleValue();
  }
}
