package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Window boards ({@code type: window}, unsegmented): per-bucket sorted sets of weighted events and
 * a snapshot of the completed buckets in {@link WindowStore}, followed by {@link WindowFolds}; a
 * publish reads the snapshot plus the current bucket. Thread-safe.
 */
final class WindowBoards extends FoldedWindows {

  private final WindowStore store;
  private final ScoredEntries entries;

  WindowBoards(WindowStore store, WindowFolds folds, ScoredEntries entries) {
    super(folds);
    this.store = store;
    this.entries = entries;
  }

  @Override
  public boolean keeps(BoardDefinition board) {
    return board.kind() instanceof BoardKind.Window
        && !board.segmented()
        && board.scaleBy() == null;
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
}
