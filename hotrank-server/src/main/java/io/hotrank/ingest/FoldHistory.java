package io.hotrank.ingest;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** What a {@link FoldListener} that fell behind reads to catch up: the folds still on record. */
public final class FoldHistory {

  private final EventLog eventLog;

  FoldHistory(EventLog eventLog) {
    this.eventLog = eventLog;
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
   * in seq order; null when its record was pruned (it is older than {@code
   * hotrank.ingest.retention}).
   */
  public @Nullable List<LoggedEvent> eventsOf(long foldNo) {
    List<long[]> ranges = eventLog.foldedBy(foldNo);
    return ranges == null ? null : eventLog.readRanges(ranges);
  }
}
