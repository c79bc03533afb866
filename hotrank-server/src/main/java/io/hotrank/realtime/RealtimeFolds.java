package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardType;
import io.hotrank.core.score.Interactions;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.FoldListener;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.item.CounterStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the window boards, leaderboards and live boards ({@link LiveBoards}) in Redis in step with
 * the event log: every committed fold is applied to each of them once, by scripts that check the
 * fold number each board (or shard) applied last.
 *
 * <p>When a script finds a board behind (Redis was down, or the instance that folded died before
 * telling Redis), the missing folds are replayed from {@link FoldHistory}, at most {@value
 * #MAX_REPLAY} per call, the rest on the next fold or the next idle second. When a board's data is
 * gone (Redis restarted empty, or was flushed): a window board replays the folds of its window from
 * the log; a leaderboard is rebuilt from the database's counters. When Redis holds a fold number
 * the log never reached (it belongs to another database), the board is reset and rebuilt.
 */
final class RealtimeFolds implements FoldListener {

  private static final Logger log = LoggerFactory.getLogger(RealtimeFolds.class);

  /** Folds replayed per call at most, so that catching up never stalls the folder for long. */
  static final int MAX_REPLAY = 200;

  /** How long a replay's mark outlives its last step (an instance that died mid-replay). */
  private static final Duration REPLAY_MARK = Duration.ofSeconds(30);

  /** Events may carry a time up to this far ahead (the API's tolerance). */
  private static final long FUTURE_MILLIS = 5 * 60_000;

  private final List<BoardDefinition> windows;
  private final List<BoardDefinition> leaderboards;
  private final List<BoardDefinition> lives;
  private final LiveBoards liveBoards;
  private final WindowStore windowStore;
  private final LeaderboardStore leaderboardStore;
  private final FoldHistory history;
  private final CounterStore counters;
  private final Clock clock;
  private final AppliedFolds appliedFolds;

  RealtimeFolds(
      List<BoardDefinition> boards,
      WindowStore windowStore,
      LeaderboardStore leaderboardStore,
      FoldHistory history,
      CounterStore counters,
      Clock clock,
      AppliedFolds appliedFolds,
      LiveBoards liveBoards) {
    this.windows = boards.stream().filter(b -> b.type() == BoardType.WINDOW).toList();
    this.leaderboards = boards.stream().filter(b -> b.type() == BoardType.LEADERBOARD).toList();
    this.lives = boards.stream().filter(b -> b.type() == BoardType.LIVE).toList();
    this.liveBoards = liveBoards;
    this.windowStore = windowStore;
    this.leaderboardStore = leaderboardStore;
    this.history = history;
    this.counters = counters;
    this.clock = clock;
    this.appliedFolds = appliedFolds;
  }

  /** How many members a shard or a window snapshot keeps: the board's size plus as many again. */
  static int keep(BoardDefinition board) {
    return 2 * board.size();
  }

  @Override
  public void folded(Fold fold) {
    for (BoardDefinition board : windows) {
      guarded(board, () -> applyWindow(board, fold));
    }
    for (BoardDefinition board : leaderboards) {
      guarded(board, () -> applyLeaderboard(board, fold));
    }
    for (BoardDefinition board : lives) {
      guarded(board, () -> liveBoards.apply(board, fold));
    }
    appliedFolds.applied();
  }

  @Override
  public void idle(long lastFoldNo) {
    for (BoardDefinition board : windows) {
      guarded(board, () -> catchUpWindow(board, lastFoldNo, lastFoldNo));
    }
    for (BoardDefinition board : leaderboards) {
      guarded(board, () -> catchUpLeaderboard(board, lastFoldNo, lastFoldNo));
    }
    for (BoardDefinition board : lives) {
      guarded(board, () -> liveBoards.idle(board, lastFoldNo));
    }
  }

  private static void guarded(BoardDefinition board, Runnable work) {
    try {
      work.run();
    } catch (RuntimeException e) {
      log.warn("Board '{}' not updated from the event log: {}", board.name(), e.toString());
    }
  }

  // --- window boards ---

  private void applyWindow(BoardDefinition board, Fold fold) {
    long now = clock.millis();
    String outcome =
        windowStore.apply(board, fold.foldNo(), fold.foldNo() - 1, fold.events(), now, keep(board));
    if (outcome.startsWith("behind:")
        && catchUpWindow(board, fold.foldNo() - 1, history.lastFoldNo())) {
      windowStore.apply(board, fold.foldNo(), fold.foldNo() - 1, fold.events(), now, keep(board));
    }
  }

  /**
   * Replays folds until the board has applied {@code upTo}.
   *
   * @param lastFoldNo the log's last fold, to tell a board from another log
   * @return whether it has
   */
  boolean catchUpWindow(BoardDefinition board, long upTo, long lastFoldNo) {
    long now = clock.millis();
    Long applied = windowStore.applied(board);
    // Read after the board's: another instance may have folded and applied since lastFoldNo.
    if (applied != null && applied > lastFoldNo && applied > history.lastFoldNo()) {
      log.warn(
          "Window board '{}' holds fold {} but the event log's last is {}: resetting it",
          board.name(),
          applied,
          lastFoldNo);
      windowStore.reset(board, now);
      applied = null;
    }
    if (applied != null && applied >= upTo) {
      return true;
    }
    boolean replaying = applied == null || windowStore.isReplaying(board);
    long from;
    if (applied == null) {
      long since = now - board.window().toMillis() - board.bucket().toMillis() - FUTURE_MILLIS;
      from = Math.min(history.firstFoldSince(since), upTo);
      log.info(
          "Window board '{}' has no data in Redis: replaying folds {} to {} from the event log",
          board.name(),
          from,
          upTo);
    } else {
      from = applied + 1;
    }
    if (replaying) {
      // Not published from a part of its window until the replay is through.
      windowStore.replaying(board, true, REPLAY_MARK);
    }
    Long previous = applied;
    for (long f = from; f <= upTo; f++) {
      if (f - from >= MAX_REPLAY) {
        return false;
      }
      List<LoggedEvent> events = f == 0 ? List.of() : history.eventsOf(f);
      if (events == null) {
        events = List.of(); // pruned: older than the retention, so older than any window
        previous = null;
      }
      String outcome = windowStore.apply(board, f, previous, events, now, keep(board));
      if (outcome.startsWith("behind:")) {
        return false; // another instance is replaying it too; the next call goes on
      }
      previous = f;
    }
    if (replaying) {
      windowStore.replaying(board, false, REPLAY_MARK);
      log.info("Window board '{}' replayed up to fold {}", board.name(), upTo);
    }
    return true;
  }

  /** Drops a window board's Redis data and replays its window from the event log. */
  void replayWindow(BoardDefinition board) {
    windowStore.reset(board, clock.millis());
    long last = history.lastFoldNo();
    for (int round = 0; round < 10_000 && !catchUpWindow(board, last, last); round++) {}
  }

  // --- leaderboards ---

  private void applyLeaderboard(BoardDefinition board, Fold fold) {
    Map<Integer, Map<Long, Long>> byShard = new TreeMap<>();
    fold.counters()
        .forEach(
            (key, counts) -> {
              if (key.biz().equals(board.biz())) {
                byShard
                    .computeIfAbsent(
                        LeaderboardStore.shardOf(board, key.itemId()), s -> new HashMap<>())
                    .put(key.itemId(), value(board, counts));
              }
            });
    for (int shard = 0; shard < board.shards(); shard++) {
      String outcome =
          leaderboardStore.apply(
              board,
              shard,
              fold.foldNo(),
              fold.foldNo() - 1,
              false,
              keep(board),
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

  /** Brings every shard up to {@code upTo}; rebuilds when one has no data. */
  void catchUpLeaderboard(BoardDefinition board, long upTo, long lastFoldNo) {
    List<@Nullable Long> applied = leaderboardStore.applied(board);
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
      if (applied.get(shard) < upTo) {
        catchUpShard(board, shard, applied.get(shard), upTo);
      }
    }
  }

  /**
   * Writes the current values of the shard's items that folds {@code applied + 1 .. upTo} changed
   * (values read now are at least as new as fold {@code upTo}); rebuilds when that is too many
   * folds or one was pruned.
   */
  private void catchUpShard(BoardDefinition board, int shard, long applied, long upTo) {
    if (upTo - applied > MAX_REPLAY) {
      rebuild(board, "it is " + (upTo - applied) + " folds behind");
      return;
    }
    Set<Long> ids = new HashSet<>();
    for (long f = applied + 1; f <= upTo; f++) {
      List<LoggedEvent> events = history.eventsOf(f);
      if (events == null) {
        rebuild(board, "fold " + f + " it missed was pruned");
        return;
      }
      for (LoggedEvent e : events) {
        if (e.biz().equals(board.biz())
            && e.type().counter() == board.counter()
            && LeaderboardStore.shardOf(board, e.itemId()) == shard) {
          ids.add(e.itemId());
        }
      }
    }
    Map<Long, CounterStore.Card> cards = counters.cards(board.biz(), ids);
    Map<Long, Long> values = new HashMap<>();
    for (Long id : ids) {
      CounterStore.Card card = cards.get(id);
      values.put(id, card == null ? 0 : value(board, card.counts()));
    }
    leaderboardStore.apply(board, shard, upTo, null, false, keep(board), values);
  }

  /**
   * Refills every shard from the database's counters: the {@code keep} live items with the highest
   * value, each into its shard, replacing what the shard held.
   */
  void rebuild(BoardDefinition board, String why) {
    long foldNo = history.lastFoldNo();
    List<Map.Entry<Long, Long>> top = counters.topBy(board.biz(), board.counter(), keep(board));
    Map<Integer, Map<Long, Long>> byShard = new TreeMap<>();
    for (Map.Entry<Long, Long> e : top) {
      byShard
          .computeIfAbsent(LeaderboardStore.shardOf(board, e.getKey()), s -> new HashMap<>())
          .put(e.getKey(), e.getValue());
    }
    List<String> outcomes = new ArrayList<>();
    for (int shard = 0; shard < board.shards(); shard++) {
      outcomes.add(
          leaderboardStore.apply(
              board,
              shard,
              foldNo,
              null,
              true,
              keep(board),
              byShard.getOrDefault(shard, Map.of())));
    }
    log.info(
        "Leaderboard '{}' rebuilt from the database at fold {} ({} items) because {}; shards: {}",
        board.name(),
        foldNo,
        top.size(),
        why,
        outcomes);
  }

  private static long value(BoardDefinition board, Interactions counts) {
    return board.counter().countIn(counts);
  }
}
