package io.hotrank.ingest.fold;

import io.hotrank.ingest.EventSource;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.LoggedEvent;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** The fold history as {@code hr_fold} holds it, read back through the configured source. */
public final class RecordedFolds implements FoldHistory {

  private final FoldNumbers numbers;

  /**
   * Looked up when first needed: the source's folders tell the listeners, and a listener reads this
   * history, so taking the source at construction would make a cycle of beans.
   */
  private final Supplier<EventSource> source;

  public RecordedFolds(FoldNumbers numbers, Supplier<EventSource> source) {
    this.numbers = numbers;
    this.source = source;
  }

  @Override
  public long firstFoldSince(long millis) {
    return numbers.firstFoldSince(millis);
  }

  @Override
  public long lastFoldNo() {
    return numbers.lastFoldNo();
  }

  @Override
  public @Nullable List<LoggedEvent> eventsOf(long foldNo) {
    FoldNumbers.Recorded recorded = numbers.recordOf(foldNo);
    if (recorded == null) {
      return null;
    }
    EventSource configured = source.get();
    return recorded.source().equals(configured.name())
        ? configured.eventsOf(recorded.record())
        : null;
  }
}
