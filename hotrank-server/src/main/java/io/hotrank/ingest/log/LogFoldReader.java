package io.hotrank.ingest.log;

import io.hotrank.ingest.LoggedEvent;
import io.hotrank.ingest.fold.FoldReader;
import java.util.List;

/**
 * Reads a fold of the event log back from the log, by the seq ranges its record holds; whatever the
 * configured source, so that a board that missed folds from before a switch to another source still
 * replays them. A pruned row is simply not read (the fold's record goes with it).
 */
final class LogFoldReader implements FoldReader {

  private final EventLog eventLog;

  LogFoldReader(EventLog eventLog) {
    this.eventLog = eventLog;
  }

  @Override
  public String source() {
    return LogSource.NAME;
  }

  @Override
  public List<LoggedEvent> eventsOf(String record) {
    return eventLog.readRanges(FoldCursor.parseRanges(record));
  }
}
