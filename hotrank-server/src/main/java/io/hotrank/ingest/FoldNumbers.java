package io.hotrank.ingest;

/**
 * Numbers the folds of a source other than the event log (Kafka), in the one sequence every fold
 * shares: the Redis side ({@link FoldListener}s) applies folds by number, whatever their source,
 * and reads a missed one back through {@link FoldHistory}.
 */
public final class FoldNumbers {

  private final EventLog eventLog;

  FoldNumbers(EventLog eventLog) {
    this.eventLog = eventLog;
  }

  /**
   * Takes the next fold number and stores the fold's {@code record} tagged with its {@code source}
   * (what {@link EventSource#eventsOf} reads it back from). Call inside the fold's transaction,
   * after the fold has locked its counters: the number's row stays locked until the commit, so
   * numbers follow commit order, and an item's versions grow with its folds.
   */
  public long number(String source, String record, long nowMillis) {
    return eventLog.numberFold(source, record, nowMillis);
  }

  /** The number of the last committed fold (0 before the first). */
  public long lastFoldNo() {
    return eventLog.cursor().foldNo();
  }

  /** The database's clock, epoch milliseconds: what folds are stamped with. */
  public long databaseMillis() {
    return eventLog.databaseMillis();
  }

  /** Makes this session's commits durable where the engine does not at commit (H2). */
  public void makeCommitsDurable() {
    eventLog.makeCommitsDurable();
  }
}
