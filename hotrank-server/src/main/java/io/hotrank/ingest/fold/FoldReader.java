package io.hotrank.ingest.fold;

import io.hotrank.ingest.Fold;
import io.hotrank.ingest.LoggedEvent;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads the events of one source's folds back from the records they left in {@code hr_fold}, for a
 * {@link io.hotrank.ingest.FoldListener} that missed them. One bean per source whose records this
 * instance can read: the event log's always (its table is there whatever the source), another
 * source's when it is configured. Thread-safe.
 */
public interface FoldReader {

  /** The name of the source whose records it reads ({@link io.hotrank.ingest.EventSource#name}). */
  String source();

  /**
   * The events the fold whose record is {@code record} applied (those that changed a counter), in
   * the order it applied them; null when the source no longer holds them (past its retention).
   */
  @Nullable List<LoggedEvent> eventsOf(String record);

  /**
   * The items whose counters the fold changed; null when the source no longer holds them. By
   * default those of {@link #eventsOf}; a fold without events (a flag's retraction) names them in
   * its record.
   */
  default @Nullable List<Fold.ItemKey> itemsOf(String record) {
    List<LoggedEvent> events = eventsOf(record);
    return events == null
        ? null
        : events.stream().map(e -> new Fold.ItemKey(e.biz(), e.itemId())).distinct().toList();
  }
}
