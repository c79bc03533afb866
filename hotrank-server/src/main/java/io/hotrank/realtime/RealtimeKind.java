package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.ingest.Fold;
import io.hotrank.job.JobDefinition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one realtime kind of board ({@link BoardKind} other than batch) does: the folder hands it
 * each fold and each idle second, the board's publish job asks it for the entries to publish, and
 * an operator's rebuild asks it to start over. {@link RealtimeFolds}, {@link RealtimeJobs} and
 * {@link RealtimeController} loop over boards and never ask which kind they hold.
 *
 * <p>Implementations are thread-safe: folds, publishes and rebuilds of one board may run at once on
 * one instance and on several; the Redis scripts each kind runs check fold numbers, so that every
 * fold counts once.
 */
interface RealtimeKind {

  /** Whether this kind keeps {@code board} (its type, and whether it is a family of segments). */
  boolean keeps(BoardDefinition board);

  /** Applies a committed fold; catches up first when the board missed folds before it. */
  void apply(BoardDefinition board, Fold fold);

  /**
   * Brings the board up to {@code lastFoldNo} when it fell behind, or restores it when Redis lost
   * its data (called each idle second of the folder).
   */
  void catchUp(BoardDefinition board, long lastFoldNo);

  /**
   * The board's candidates at {@code now}, best first, ranked from 1: its top live items with their
   * cards, over-fetched by one per live operator control and {@code ControlsApplied.RESERVE}; null
   * when Redis holds none (or only a part) of the board's data, so that the caller keeps serving
   * what it published.
   *
   * @param controls how many live operator controls the board has
   */
  @Nullable List<BoardEntry> entries(BoardDefinition board, Instant now, int controls);

  /**
   * Starts the board over on an operator's request: from the database's counters or the event log.
   * A kind whose rebuild must run under the board's lease only drops its data here and answers
   * true, and the caller runs the board's publish job, which rebuilds it.
   *
   * @return whether the publish job must run to finish the rebuild
   */
  boolean rebuild(BoardDefinition board, String why);

  /**
   * Whether a new candidate list shows a different board than the one published: by default any
   * difference; a kind whose scores move every instant while its order holds compares the order.
   */
  default boolean changed(List<BoardEntry> published, List<BoardEntry> candidates) {
    return !published.equals(candidates);
  }

  /** {@link #changed(List, List)} for one board: a kind that republishes on its own news. */
  default boolean changed(
      BoardDefinition board, List<BoardEntry> published, List<BoardEntry> candidates) {
    return changed(published, candidates);
  }

  /** Jobs of the board beside its publish job. */
  default List<JobDefinition> jobs(BoardDefinition board) {
    return List.of();
  }

  /**
   * An item of the board's biz was created (committed); no fold names it before its first event.
   */
  default void created(BoardDefinition board, long itemId, long createdAtMillis) {}

  /** An item of the board's biz was edited (committed): its labels and fields may have changed. */
  default void edited(BoardDefinition board, long itemId) {}

  /** An item of the board's biz was deleted (committed). */
  default void deleted(BoardDefinition board, long itemId, long createdAtMillis) {}

  /**
   * Checks the board against the event log's retention, for a kind that replays its data from the
   * log.
   *
   * @throws IllegalStateException naming the board and the setting
   */
  default void checkRetention(BoardDefinition board, Duration retention) {}
}
