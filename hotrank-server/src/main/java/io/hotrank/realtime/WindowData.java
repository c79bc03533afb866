package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.ingest.FoldedEvent;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where a window board's data lives in Redis and how a fold's events enter it: one board's buckets
 * ({@link WindowStore}) or a family's, per segment ({@link WindowFamilyStore}). {@link WindowFolds}
 * follows the folds, replays the log and builds the snapshots through it, for both.
 */
interface WindowData {

  /**
   * Adds a fold's events of the board's biz, unless the fold was applied already.
   *
   * @param previous the fold the board must have applied before this one, or null to apply whatever
   *     it holds (the first fold replayed after its data was lost)
   * @return {@code applied}, {@code done}, or {@code behind:<applied>} (nothing changed)
   */
  String apply(
      BoardDefinition board,
      long foldNo,
      @Nullable Long previous,
      List<FoldedEvent> events,
      long nowMillis,
      int keep);

  /**
   * Builds the snapshots of the buckets completed before the current one, unless built already.
   *
   * @return how many members (a board) or segments (a family) were built, or -1 when built already
   */
  long build(BoardDefinition board, long nowMillis, int keep);

  /** The last fold applied, or null when the board holds none (new, or Redis lost its data). */
  @Nullable Long applied(BoardDefinition board);

  /** Empties the board in one step: its data belongs to another log, or is replayed anew. */
  void reset(BoardDefinition board, long nowMillis);

  /** Marks the board as being replayed for {@code ttl}, or clears the mark. */
  void replaying(BoardDefinition board, boolean on, Duration ttl);

  /** Whether the board is being replayed. */
  boolean isReplaying(BoardDefinition board);

  /** The board's window was replayed from the log: what waited for it may go on. */
  default void replayed(BoardDefinition board) {}
}
