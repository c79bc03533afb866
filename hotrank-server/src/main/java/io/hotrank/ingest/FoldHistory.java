package io.hotrank.ingest;

import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link FoldListener} that fell behind reads to catch up: the folds still on record. Each
 * fold's record in {@code hr_fold} is tagged with the source that folded it, and read back by that
 * source ({@link EventSource#eventsOf}); a fold of the event log is read from the log whichever
 * source is configured now.
 */
public final class FoldHistory {

  private final EventLog eventLog;

  /**
   * Looked up when first needed: the source's folders tell the listeners, and a listener reads this
   * history, so taking the source at construction would make a cycle of beans.
   */
  private final Supplier<EventSource> source;

  FoldHistory(EventLog eventLog, Supplier<EventSource> source) {
    this.eventLog = eventLog;
    this.source = source;
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
   * hotrank.ingest.retention}), its source no longer holds them, or it was folded by a source this
   * instance is not configured for (the source was switched since).
   */
  public @Nullable List<LoggedEvent> eventsOf(long foldNo) {
    EventLog.Recorded recorded = eventLog.recordOf(foldNo);
    if (recorded == null) {
      return null;
    }
    if (recorded.source().equals(LogSource.NAME)) {
      return LogSource.eventsOf(eventLog, recorded.record());
    }
    EventSource configured = source.get();
    return recorded.source().equals(configured.name())
        ? configured.eventsOf(recorded.record())
        : null;
  }
}
