package io.hotrank.ingest;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link FoldListener} that fell behind reads to catch up: the folds still on record. Each
 * fold's record is tagged with the source that folded it, and read back by that source's reader:
 * the event log's whatever the source, another source's while it is configured. Thread-safe.
 */
public interface FoldHistory {

  /**
   * The number of the first fold committed at or after {@code millis} (by the folder's clock), or
   * the next fold's number when none was.
   */
  long firstFoldSince(long millis);

  /** The number of the last committed fold (0 before the first). */
  long lastFoldNo();

  /**
   * The events fold {@code foldNo} applied (those that changed a counter, as {@link Fold#events}),
   * with what each weighed, in the order its source reads them back (an item's in the order the
   * fold applied them); null when its record was pruned (it is older than {@code
   * hotrank.ingest.retention}), its source no longer holds them, or it was folded by a source other
   * than the log that is not the configured one (switched since: its folds read as pruned ones).
   */
  @Nullable List<FoldedEvent> eventsOf(long foldNo);

  /**
   * The items whose counters fold {@code foldNo} changed (those of its events, or those a flag's
   * retraction took weight from); null when its record is gone, as for {@link #eventsOf}.
   */
  default @Nullable List<Fold.ItemKey> itemsOf(long foldNo) {
    List<FoldedEvent> events = eventsOf(foldNo);
    return events == null
        ? null
        : events.stream()
            .map(e -> new Fold.ItemKey(e.event().biz(), e.event().itemId()))
            .distinct()
            .toList();
  }
}
