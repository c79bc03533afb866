package io.hotrank.ingest.fold;

import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.LoggedEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fold history as {@code hr_fold} holds it: each fold's record read back by the {@link
 * FoldReader} of the source it is tagged with.
 */
public final class RecordedFolds implements FoldHistory {

  private static final Logger log = LoggerFactory.getLogger(RecordedFolds.class);

  private final FoldNumbers numbers;
  private final Map<String, FoldReader> readers = new HashMap<>();

  /**
   * @throws IllegalStateException when two readers read one source's records
   */
  public RecordedFolds(FoldNumbers numbers, List<FoldReader> readers) {
    this.numbers = numbers;
    for (FoldReader reader : readers) {
      if (this.readers.put(reader.source(), reader) != null) {
        throw new IllegalStateException("two readers of the folds of " + reader.source());
      }
    }
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
  public @Nullable List<FoldedEvent> eventsOf(long foldNo) {
    FoldNumbers.Recorded recorded = numbers.recordOf(foldNo);
    if (recorded == null) {
      return null;
    }
    FoldReader reader = readers.get(recorded.source());
    List<LoggedEvent> events = reader == null ? null : reader.eventsOf(recorded.record());
    if (events == null) {
      return null;
    }
    List<FoldedEvent> folded = FoldWeights.decode(recorded.weights(), events);
    if (folded == null) {
      // The source gave back other events than the fold applied: weighed as the counters would
      // have before trust, rather than not at all.
      log.warn(
          "Fold {} ({}) read back {} events that its weights do not match: replayed at full"
              + " weight",
          foldNo,
          recorded.source(),
          events.size());
      return FoldWeights.decode(null, events);
    }
    return folded;
  }

  @Override
  public @Nullable List<Fold.ItemKey> itemsOf(long foldNo) {
    FoldNumbers.Recorded recorded = numbers.recordOf(foldNo);
    if (recorded == null) {
      return null;
    }
    FoldReader reader = readers.get(recorded.source());
    return reader == null ? null : reader.itemsOf(recorded.record());
  }
}
