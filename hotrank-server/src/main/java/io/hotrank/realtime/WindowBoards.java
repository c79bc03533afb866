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
 * Window boards ({@code type: window}, unsegmented): per-bucket sorted sets of weighted events and
 * a snapshot of the completed buckets in {@link WindowStore}, followed by {@link WindowFolds}; a
 * publish reads the snapshot plus the current bucket. Thread-safe.
 */
final class WindowBoards implements RealtimeKind {

  private final WindowStore store;
  private final WindowFolds folds;
  private final ScoredEntries entries;

  WindowBoards(WindowStore store, WindowFolds folds, ScoredEntries entries) {
    this.store = store;
    this.folds = folds;
    this.entries = entries;
  }

  @Override
  public boolean keeps(BoardDefinition board) {
    return board.kind() instanceof BoardKind.Window && !board.segmented();
  }

  @Override
  public void apply(BoardDefinition board, Fold fold) {
    folds.apply(board, fold);
  }

  @Override
  public void catchUp(BoardDefinition board, long lastFoldNo) {
    folds.catchUp(board, lastFoldNo);
  }

  @Override
  public boolean rebuild(BoardDefinition board, String why) {
    return folds.rebuild(board, why);
  }

  /**
   * The snapshot's top plus the current bucket; null while Redis holds no data of the board or only
   * a part (it is replaying its window from the log). A pinned item outside the top shows 0 until
   * it enters it ({@link BoardKind.Window#lookUpScore}).
   */
  @Override
  public @Nullable List<BoardEntry> entries(BoardDefinition board, Instant now, int controls) {
    if (store.applied(board) == null || store.isReplaying(board)) {
      return null;
    }
    long nowMillis = now.toEpochMilli();
    return entries.entries(board, controls, n -> store.top(board, nowMillis, n), gone -> {});
  }

  @Override
  public List<JobDefinition> jobs(BoardDefinition board) {
    return folds.jobs(board);
  }

  @Override
  public void checkRetention(BoardDefinition board, Duration retention) {
    folds.checkRetention(board, retention);
  }
}
