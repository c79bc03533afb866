package io.hotrank.ingest;

import io.hotrank.event.Event;
import java.util.List;

/**
 * Where {@link EventAppender}'s writer threads put the groups of accepted events: the event log, or
 * a Kafka topic. Each writer thread asks for a {@link Writer} of its own once and keeps it.
 */
public interface EventSink {

  /** The writer of writer thread {@code index} (0-based); called on that thread. */
  Writer writer(int index);

  /** Writes groups of events for one thread; not shared between threads. */
  interface Writer extends AutoCloseable {

    /**
     * Writes the events durably, all or nothing: when this returns, every one of them will be
     * folded; when it throws, none of them will, except when it throws {@link
     * IngestOutcomeUnknownException}: the write broke after it was sent, and they may all be.
     *
     * @param deadlineNanos when (by the service's {@code Ticker}) the first request of the group
     *     stops waiting and is answered 503: a sink whose write could end after it must not make
     *     the events visible then
     * @throws RuntimeException when they were not written; {@link IngestOverloadedException}
     *     answers 503
     */
    void write(List<Event> events, long deadlineNanos);

    /** Releases what the writer holds; called when its thread stops. */
    @Override
    default void close() {}
  }
}
