package io.hotrank.ingest;

import io.hotrank.event.Event;
import io.hotrank.idempotency.IdempotencyClaim;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where {@link EventAppender}'s writer threads put the groups of accepted events: the event log, or
 * a Kafka topic. Each writer thread asks for a {@link Writer} of its own once and keeps it.
 */
public interface EventSink {

  /** The writer of writer thread {@code index} (0-based); called on that thread. */
  Writer writer(int index);

  /**
   * One request's events within a group.
   *
   * @param events the events, without repeats of an id within the request
   * @param repeats the events the request repeated (same biz and id), already left out
   * @param claim the request's idempotency key, when it has one: a sink that writes to the database
   *     records the answer in the same transaction
   */
  record Batch(List<Event> events, int repeats, @Nullable IdempotencyClaim claim) {}

  /** Writes groups of events for one thread; not shared between threads. */
  interface Writer extends AutoCloseable {

    /**
     * Writes the batches durably, all or nothing: when this returns, every one of their events will
     * be folded once (but those it reports as duplicates); when it throws, none of them will,
     * except when it throws {@link IngestOutcomeUnknownException}: the write broke after it was
     * sent, and they may all be.
     *
     * @param deadlineNanos when (by the service's {@code Ticker}) the first request of the group
     *     stops waiting and is answered 503: a sink whose write could end after it must not make
     *     the events visible then
     * @return for each batch, how many of its events were left out as duplicates of events accepted
     *     before (0 where the sink tells duplicates at the fold)
     * @throws RuntimeException when they were not written; {@link IngestOverloadedException}
     *     answers 503
     */
    int[] write(List<Batch> batches, long deadlineNanos);

    /** Releases what the writer holds; called when its thread stops. */
    @Override
    default void close() {}
  }
}
