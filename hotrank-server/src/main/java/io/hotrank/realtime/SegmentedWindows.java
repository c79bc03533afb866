package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import java.util.List;

/**
 * Window boards kept per segment in a {@link WindowFamilyStore} (window families, and scaled window
 * boards): an edit moves the item's whole window between segments at once, a delete takes it out.
 */
abstract class SegmentedWindows extends FoldedWindows {

  final WindowFamilyStore store;

  SegmentedWindows(WindowFamilyStore store, WindowFolds folds) {
    super(folds);
    this.store = store;
  }

  @Override
  public void edited(BoardDefinition board, long itemId) {
    store.move(board, List.of(itemId));
  }

  @Override
  public void deleted(BoardDefinition board, long itemId, long createdAtMillis) {
    store.remove(board, List.of(itemId));
  }
}
