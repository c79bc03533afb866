package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.ingest.Fold;
import io.hotrank.job.JobDefinition;
import java.time.Duration;
import java.util.List;

/**
 * What window boards and window families share: both follow the folds through {@link WindowFolds}
 * (apply, catch up, replay on rebuild, the snapshot build job, the log's retention), over their own
 * {@link WindowData}.
 */
abstract class FoldedWindows implements RealtimeKind {

  final WindowFolds folds;

  FoldedWindows(WindowFolds folds) {
    this.folds = folds;
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

  @Override
  public List<JobDefinition> jobs(BoardDefinition board) {
    return folds.jobs(board);
  }

  @Override
  public void checkRetention(BoardDefinition board, Duration retention) {
    folds.checkRetention(board, retention);
  }
}
