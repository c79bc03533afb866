package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.ingest.FoldHistory;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How a live board, or a live family, follows the event log's folds: the fold number its Redis data
 * records, what a fold's script answered ({@code behind:<applied>}, {@code ahead:<applied>}), and
 * the catch-up that writes the current state of the items the missed folds touched, a chunk of
 * folds at a time, or forgets the data (so that the next publish rebuilds it) when a missed fold
 * was pruned from the history or the data holds a fold the log never reached.
 */
final class FoldCursor {

  /** The data a cursor moves: its fold number, forgetting it, and writing current items. */
  interface Followed {
    /** The last fold applied, or null when Redis holds none of the data. */
    @Nullable Long applied(BoardDefinition board);

    /** Forgets which fold was applied, so that the next publish rebuilds the data. */
    void forget(BoardDefinition board, String why);

    /**
     * Writes the current state of {@code ids} (read now, at least as new as fold {@code to}) and
     * records fold {@code to}, unless the data no longer holds fold {@code from} (another instance
     * went further).
     *
     * @return whether the data now holds fold {@code to} ({@code applied} or {@code done})
     */
    boolean writeCurrent(BoardDefinition board, long from, long to, Set<Long> ids);
  }

  /** Chunks of {@link RealtimeFolds#MAX_REPLAY} folds caught up per call at most. */
  static final int MAX_CHUNKS = 5;

  /**
   * Items a chunk writes at most (it ends with the fold that reached them): a catch-up runs on the
   * folder's thread, and folds over a large catalogue each change thousands of items.
   */
  static final int MAX_ITEMS = 10_000;

  private final FoldHistory history;
  private final Followed followed;

  FoldCursor(FoldHistory history, Followed followed) {
    this.history = history;
    this.followed = followed;
  }

  /**
   * Acts on what a fold's script answered: catches up one chunk when behind (the folder goes on,
   * and the next fold continues where this one stopped), checks the log when ahead.
   */
  void folded(BoardDefinition board, long foldNo, String outcome) {
    if (outcome.startsWith("behind:") && !outcome.equals("behind:")) {
      catchUp(board, Long.parseLong(outcome.substring("behind:".length())), foldNo, 1);
    } else if (outcome.startsWith("ahead:")) {
      forgetIfAheadOfTheLog(board);
    }
  }

  /** Brings the data up to {@code upTo} when it has data and is behind (each idle second). */
  void catchUp(BoardDefinition board, long upTo) {
    Long applied = followed.applied(board);
    if (applied != null && applied > upTo) {
      forgetIfAheadOfTheLog(board);
    } else if (applied != null && applied < upTo) {
      catchUp(board, applied, upTo, MAX_CHUNKS);
    }
  }

  private void catchUp(BoardDefinition board, long applied, long upTo, int chunks) {
    long from = applied;
    for (int chunk = 0; chunk < chunks && from < upTo; chunk++) {
      MissedFolds missed =
          MissedFolds.readItems(
              history,
              from + 1,
              Math.min(upTo, from + RealtimeFolds.MAX_REPLAY),
              item -> item.biz().equals(board.biz()),
              MAX_ITEMS);
      if (missed.pruned() != 0) {
        followed.forget(board, "fold " + missed.pruned() + " it missed was pruned");
        return;
      }
      long to = missed.last();
      if (!followed.writeCurrent(board, from, to, missed.ids())) {
        return; // no data (the next publish rebuilds it), or another instance went further
      }
      from = to;
    }
  }

  /**
   * Forgets data that holds a fold the event log never reached (the database was restored, or
   * another one is behind the same key prefix): no fold would change it again.
   */
  private void forgetIfAheadOfTheLog(BoardDefinition board) {
    Long applied = followed.applied(board);
    long last = history.lastFoldNo();
    if (applied != null && applied > last) {
      followed.forget(board, "it holds fold " + applied + " but the event log's last is " + last);
    }
  }
}
