package io.hotrank.realtime;

import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldListener;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the realtime boards in Redis in step with the event log: every committed fold is handed to
 * each board's kind ({@link RealtimeKind#apply}), which applies it once by scripts that check the
 * fold number each board (or shard) applied last; each idle second of the folder, each kind catches
 * its boards up ({@link RealtimeKind#catchUp}). A board that fails is logged and left to the next
 * fold or idle second; the others go on.
 */
final class RealtimeFolds implements FoldListener {

  private static final Logger log = LoggerFactory.getLogger(RealtimeFolds.class);

  /** Folds replayed per call at most, so that catching up never stalls the folder for long. */
  static final int MAX_REPLAY = 200;

  private final List<RealtimeBoards.Kept> boards;
  private final AppliedFolds appliedFolds;
  private final PublishedCards cards;

  RealtimeFolds(RealtimeBoards boards, AppliedFolds appliedFolds, PublishedCards cards) {
    this.boards = boards.all();
    this.appliedFolds = appliedFolds;
    this.cards = cards;
  }

  @Override
  public void folded(Fold fold) {
    cards.folded(fold);
    for (RealtimeBoards.Kept kept : boards) {
      guarded(kept, () -> kept.kind().apply(kept.board(), fold));
    }
    appliedFolds.applied();
  }

  @Override
  public void idle(long lastFoldNo) {
    for (RealtimeBoards.Kept kept : boards) {
      guarded(kept, () -> kept.kind().catchUp(kept.board(), lastFoldNo));
    }
  }

  private static void guarded(RealtimeBoards.Kept kept, Runnable work) {
    try {
      work.run();
    } catch (RuntimeException e) {
      log.warn("Board '{}' not updated from the event log: {}", kept.board().name(), e.toString());
    }
  }
}
