package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.job.JobContext;

/**
 * A realtime kind whose boards are families of segment boards ({@code segment-by}): its publish job
 * publishes the segments that changed, all at once, rather than one board's entries.
 */
interface FamilyKind extends RealtimeKind {

  /**
   * Publishes the family's segment boards that changed since the last look, under the run's lease;
   * rebuilds the family first when Redis holds none of its data.
   *
   * @return false when the family has no data even after a rebuild
   */
  boolean publishChanged(BoardDefinition board, JobContext context);
}
