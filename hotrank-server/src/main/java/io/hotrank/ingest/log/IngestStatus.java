package io.hotrank.ingest.log;

import java.util.function.IntSupplier;

/**
 * Where ingest stands, for the operator console: the event log's head, the fold cursor's position
 * and the distance between them. Read from the database on each call (two indexed reads, no scan),
 * so every instance answers the same; the queue is this instance's own. Thread-safe.
 */
final class IngestStatus {

  /**
   * A reading.
   *
   * @param head the highest seq in the event log (0 when empty)
   * @param position the fold cursor: every seq up to it was folded or is an open gap
   * @param openGaps seqs at or below the position not yet seen (a writer's uncommitted insert)
   * @param foldNo the number of the last fold
   * @param lag {@code head - position}: rows accepted but not yet folded (an upper bound, as seqs
   *     may skip numbers)
   * @param queuedHere events accepted by this instance and not yet written to the log
   */
  record Reading(long head, long position, int openGaps, long foldNo, long lag, int queuedHere) {}

  private final EventLog log;
  private final IntSupplier queued;

  IngestStatus(EventLog log, IntSupplier queued) {
    this.log = log;
    this.queued = queued;
  }

  /**
   * Reads the log's head and the cursor now.
   *
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  Reading read() {
    FoldCursor cursor = log.cursor();
    long head = log.head();
    return new Reading(
        head,
        cursor.position(),
        cursor.gaps().size(),
        cursor.foldNo(),
        Math.max(0, head - cursor.position()),
        queued.getAsInt());
  }
}
