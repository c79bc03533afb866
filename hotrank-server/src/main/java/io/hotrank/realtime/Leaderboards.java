package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.item.CounterPages;
import io.hotrank.item.ItemCards;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leaderboards ({@code type: leaderboard}): one counter's absolute values in sharded sorted sets
 * ({@link LeaderboardStore}); each fold writes the values it changed into their shards, each shard
 * checking the fold number it applied last.
 *
 * <p>A shard found behind writes the current values of the items the folds it missed changed (read
 * now, they are at least as new as those folds), when they are still on record; otherwise, and when
 * a shard has no data (Redis restarted empty) or holds folds the log never reached, the board is
 * rebuilt from the database's counters. Thread-safe.
 */
final class Leaderboards implements RealtimeKind {

  private static final Logger log = LoggerFactory.getLogger(Leaderboards.class);

  private final LeaderboardStore store;
  private final FoldHistory history;
  private final CounterPages counters;
  private final ItemCards items;
  private final ScoredEntries entries;

  Leaderboards(
      LeaderboardStore store,
      FoldHistory history,
      CounterPages counters,
      ItemCards items,
      ScoredEntries entries) {
    this.store = store;
    this.history = history;
    this.counters = counters;
    this.items = items;
    this.entries = entries;
  }

  @Override
  public boolean keeps(BoardDefinition board) {
    return board.kind() instanceof BoardKind.Leaderboard
        && !board.segmented()
        && board.scaleBy() == null;
  }

  @Override
  public void apply(BoardDefinition board, Fold fold) {
    BoardKind.Leaderboard kind = board.kind(BoardKind.Leaderboard.class);
    Map<Integer, Map<Long, Long>> byShard = new TreeMap<>();
    fold.counters()
        .forEach(
            (key, counts) -> {
              if (key.biz().equals(board.biz())) {
                byShard
                    .computeIfAbsent(kind.shardOf(key.itemId()), s -> new HashMap<>())
                    .put(key.itemId(), kind.value(board.ranked(counts)));
              }
            });
    for (int shard = 0; shard < kind.shards(); shard++) {
      String outcome =
          store.apply(
              board,
              shard,
              fold.foldNo(),
              fold.foldNo() - 1,
              false,
              ScoredEntries.keep(board),
              byShard.getOrDefault(shard, Map.of()));
      if (outcome.equals("behind:")) {
        rebuild(board, "it has no data in Redis");
        return;
      }
      if (outcome.startsWith("behind:")) {
        long applied = Long.parseLong(outcome.substring("behind:".length()));
        catchUpShard(board, shard, applied, fold.foldNo());
      }
    }
  }

  @Override
  public void catchUp(BoardDefinition board, long lastFoldNo) {
    List<@Nullable Long> applied = store.applied(board);
    for (Long a : applied) {
      // Read after the shards': another instance may have folded and applied since lastFoldNo
      // (folds of a Kafka source are folded by every instance).
      if (a == null || (a > lastFoldNo && a > history.lastFoldNo())) {
        rebuild(
            board,
            a == null ? "it has no data in Redis" : "it holds folds the event log never reached");
        return;
      }
    }
    for (int shard = 0; shard < applied.size(); shard++) {
      if (applied.get(shard) < lastFoldNo) {
        catchUpShard(board, shard, applied.get(shard), lastFoldNo);
      }
    }
  }

  /**
   * Writes the current values of the shard's items that folds {@code applied + 1 .. upTo} changed
   * (values read now are at least as new as fold {@code upTo}); rebuilds when that is too many
   * folds or one was pruned.
   */
  private void catchUpShard(BoardDefinition board, int shard, long applied, long upTo) {
    if (upTo - applied > RealtimeFolds.MAX_REPLAY) {
      rebuild(board, "it is " + (upTo - applied) + " folds behind");
      return;
    }
    BoardKind.Leaderboard kind = board.kind(BoardKind.Leaderboard.class);
    // By trusted counters, the items whose counters the folds changed (a retraction's too).
    MissedFolds missed =
        board.trust() == BoardDefinition.Trust.TRUSTED
            ? MissedFolds.readItems(
                history,
                applied + 1,
                upTo,
                k -> k.biz().equals(board.biz()) && kind.shardOf(k.itemId()) == shard,
                Integer.MAX_VALUE)
            : MissedFolds.read(
                history,
                applied + 1,
                upTo,
                e ->
                    e.raw()
                        && e.event().biz().equals(board.biz())
                        && e.event().type().counter() == kind.counter()
                        && kind.shardOf(e.event().itemId()) == shard);
    if (missed.pruned() != 0) {
      rebuild(board, "fold " + missed.pruned() + " it missed was pruned");
      return;
    }
    Set<Long> ids = missed.ids();
    Map<Long, ItemCards.Card> cards = items.cards(board.biz(), ids);
    Map<Long, Long> values = new HashMap<>();
    for (Long id : ids) {
      ItemCards.Card card = cards.get(id);
      values.put(id, card == null ? 0 : kind.value(board.ranked(card.counters())));
    }
    store.apply(board, shard, upTo, null, false, ScoredEntries.keep(board), values);
  }

  /**
   * Refills every shard from the database's counters: the {@code keep} live items with the highest
   * value, each into its shard, replacing what the shard held.
   */
  @Override
  public boolean rebuild(BoardDefinition board, String why) {
    BoardKind.Leaderboard kind = board.kind(BoardKind.Leaderboard.class);
    long foldNo = history.lastFoldNo();
    List<Map.Entry<Long, Long>> top =
        counters.topBy(
            board.biz(),
            kind.counter(),
            board.trust() == BoardDefinition.Trust.TRUSTED,
            ScoredEntries.keep(board));
    Map<Integer, Map<Long, Long>> byShard = new TreeMap<>();
    for (Map.Entry<Long, Long> e : top) {
      byShard
          .computeIfAbsent(kind.shardOf(e.getKey()), s -> new HashMap<>())
          .put(e.getKey(), e.getValue());
    }
    List<String> outcomes = new ArrayList<>();
    for (int shard = 0; shard < kind.shards(); shard++) {
      outcomes.add(
          store.apply(
              board,
              shard,
              foldNo,
              null,
              true,
              ScoredEntries.keep(board),
              byShard.getOrDefault(shard, Map.of())));
    }
    log.info(
        "Leaderboard '{}' rebuilt from the database at fold {} ({} items) because {}; shards: {}",
        board.name(),
        foldNo,
        top.size(),
        why,
        outcomes);
    return false;
  }

  /**
   * The shards' merged top; null while a shard has no data. A deleted item keeps its last value in
   * its shard, since no fold changes it again: it would hold a place in the shard's top that a live
   * item should have, so it is removed. A controlled item outside the top is scored by its counter
   * ({@link BoardKind.Leaderboard#lookUpScore}).
   */
  @Override
  public @Nullable List<BoardEntry> entries(BoardDefinition board, Instant now, int controls) {
    if (store.applied(board).contains(null)) {
      return null;
    }
    long unit = board.countUnit();
    return entries.entries(
        board,
        controls,
        n ->
            unit == 1
                ? store.top(board, n)
                : store.top(board, n).stream()
                    .map(s -> new Scored(s.itemId(), s.score() / unit))
                    .toList(),
        gone -> store.remove(board, gone));
  }
}
