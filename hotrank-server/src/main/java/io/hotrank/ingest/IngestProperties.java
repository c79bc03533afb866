package io.hotrank.ingest;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the event path under {@code hotrank.ingest.*}.
 *
 * @param folding whether this instance folds the event log on schedule ({@code event-fold}); off,
 *     it only accepts events, and folds on request ({@code POST /api/v1/admin/events/fold})
 * @param writers how many append transactions run at once; each appends every batch waiting when it
 *     starts (group commit), so a few are enough to keep the database busy
 * @param groupEvents the most events one multi-row INSERT appends (1000 to 6000)
 * @param queueEvents the most accepted-but-unwritten events held in memory; a batch that would pass
 *     it is refused with 503 and Retry-After
 * @param queueDelay a batch is refused with 503 and Retry-After when the oldest waiting batch has
 *     waited longer than this: the database is not keeping up, and a fast refusal beats a slow
 *     answer
 * @param foldInterval how often the folder looks for new rows when it has caught up
 * @param foldEvents the most log rows one fold applies
 * @param gapTimeout how long the folder keeps looking for a seq it skipped because its row was not
 *     yet committed (see {@code FoldCursor}); far longer than any append can take
 * @param retention how long folded log rows are kept (for a Redis side that fell behind)
 * @param itemCacheSize how many items the existence cache of the events endpoint holds
 * @param itemCacheTtl how long that cache trusts that an item is live; an item deleted on another
 *     instance may have events accepted this long (the folder then drops them)
 */
@ConfigurationProperties("hotrank.ingest")
public record IngestProperties(
    @DefaultValue("true") boolean folding,
    @DefaultValue("4") int writers,
    @DefaultValue("5000") int groupEvents,
    @DefaultValue("100000") int queueEvents,
    @DefaultValue("1s") Duration queueDelay,
    @DefaultValue("200ms") Duration foldInterval,
    @DefaultValue("20000") int foldEvents,
    @DefaultValue("1m") Duration gapTimeout,
    @DefaultValue("1d") Duration retention,
    @DefaultValue("100000") long itemCacheSize,
    @DefaultValue("5s") Duration itemCacheTtl) {

  public IngestProperties {
    positive("writers", writers);
    positive("group-events", groupEvents);
    positive("queue-events", queueEvents);
    positive("fold-events", foldEvents);
    positive("item-cache-size", itemCacheSize);
    positive("queue-delay", queueDelay);
    positive("fold-interval", foldInterval);
    positive("gap-timeout", gapTimeout);
    positive("retention", retention);
    positive("item-cache-ttl", itemCacheTtl);
    if (groupEvents < 1000 || groupEvents > 6000) {
      // Five parameters per event; PostgreSQL binds at most 32,767 per statement.
      throw new IllegalArgumentException(
          "hotrank.ingest.group-events="
              + groupEvents
              + " must be between 1000 (one batch) and 6000 (PostgreSQL's parameter limit)");
    }
    if (gapTimeout.toSeconds() < 30) {
      // A seq's row commits within the statement timeout of its append; a gap given up before
      // that may lose a row that was answered 202.
      throw new IllegalArgumentException(
          "hotrank.ingest.gap-timeout=" + gapTimeout + " must be at least 30s");
    }
  }

  private static void positive(String name, Duration value) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(
          "hotrank.ingest." + name + "=" + value + " must be positive");
    }
  }

  private static void positive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(
          "hotrank.ingest." + name + "=" + value + " must be positive");
    }
  }
}
