package io.hotrank.ingest;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link FoldListener} that fell behind reads to catch up: the folds still on record. A fold
 * of the event log is read back from the log; a fold of another source (Kafka) from that source,
 * through the {@link ForeignFolds} reader its record names.
 */
public final class FoldHistory {

  /**
   * Reads back the events of a fold whose records are not in the event log.
   *
   * <p>Implemented by the Kafka source; thread-safe.
   */
  public interface ForeignFolds {

    /** Whether {@code record} (as given to {@link FoldNumbers#number}) is one of this source's. */
    boolean owns(String record);

    /**
     * The events the fold applied, in the order it applied them; null when the source no longer
     * holds them (past its retention).
     */
    @Nullable List<LoggedEvent> eventsOf(String record);
  }

  private final EventLog eventLog;
  private final @Nullable ForeignFolds foreign;

  FoldHistory(EventLog eventLog, @Nullable ForeignFolds foreign) {
    this.eventLog = eventLog;
    this.foreign = foreign;
  }

  /**
   * The number of the first fold committed at or after {@code millis} (by the folder's clock), or
   * the next fold's number when none was.
   */
  public long firstFoldSince(long millis) {
    return eventLog.firstFoldSince(millis);
  }

  /** The number of the last committed fold (0 before the first). */
  public long lastFoldNo() {
    return eventLog.cursor().foldNo();
  }

  /**
   * The events fold {@code foldNo} applied (those that changed a counter, as {@link Fold#events}),
   * in the order it applied them; null when its record was pruned (it is older than {@code
   * hotrank.ingest.retention}) or its source no longer holds them.
   */
  public @Nullable List<LoggedEvent> eventsOf(long foldNo) {
    String record = eventLog.recordOf(foldNo);
    if (record == null) {
      return null;
    }
    if (foreign != null && foreign.owns(record)) {
      return foreign.eventsOf(record);
    }
    if (!record.isEmpty() && !Character.isDigit(record.charAt(0))) {
      return null; // another source's, which this instance does not read (it was switched back)
    }
    return eventLog.readRanges(FoldCursor.parseRanges(record));
  }
}
