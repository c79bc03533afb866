package io.hotrank.ingest;

import io.hotrank.item.Counters;
import java.util.List;
import java.util.Map;

/**
 * A committed fold, of whichever source.
 *
 * @param foldNo its number: folds are numbered 1, 2, 3... in commit order
 * @param events the events that changed a counter, raw or trusted, in the order it applied them,
 *     with what each did: not those of deleted items, nor a repeated like, nor an unlike of nothing
 *     (a flag's retraction lists what it took back)
 * @param counters the absolute counters (raw and trusted) after it of every item whose counters it
 *     changed
 * @param createdAt the createdAt (epoch milliseconds) of every item whose counters it changed
 * @param more whether it stopped at {@code hotrank.ingest.fold-events} rows with more waiting
 */
public record Fold(
    long foldNo,
    List<FoldedEvent> events,
    Map<ItemKey, Counters> counters,
    Map<ItemKey, Long> createdAt,
    boolean more) {

  /** An item of a biz. */
  public record ItemKey(String biz, long itemId) {}
}
