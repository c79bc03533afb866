package io.hotrank.ingest;

import java.util.function.Supplier;

/**
 * Where accepted events go and how they come back out: the event log ({@code
 * hotrank.ingest.source=log}, the default) or a Kafka topic ({@code kafka}). One bean, the
 * configured source's; every other module reaches ingest's sources through it.
 *
 * <p>A source owns these, and shares the rest: it writes accepted batches durably ({@link #sink()},
 * behind {@link EventAppender}'s group commit); it folds them into the counters exactly once,
 * through the shared {@code FoldApplier} and the one fold sequence ({@code FoldNumbers}), and tells
 * every {@link FoldListener} of each fold by number; it folds on request ({@link #folds()}); and it
 * says where it stands ({@link #report()}). Beside it, the source registers a {@code FoldReader}
 * that reads back the events of one of its folds from the record the fold left in {@code hr_fold},
 * for a listener that fell behind. Event ids are deduplicated through the shared {@code EventIds},
 * in the transaction that makes the events count: the log's at append, Kafka's at the fold. See
 * {@code docs/design/event-sources.md}.
 */
public interface EventSource {

  /**
   * The source's name: the {@code hotrank.ingest.source} value that selects it, the {@code source}
   * tag of its metrics, and what its folds' records are tagged with in {@code hr_fold}.
   */
  String name();

  /** Where {@link EventAppender}'s writer threads put the groups of accepted batches. */
  EventSink sink();

  /** What {@code POST /api/v1/admin/events/fold}, a manual recompute and the live reads wait on. */
  FoldOnRequest folds();

  /**
   * Where ingest stands on this source now.
   *
   * @throws RuntimeException when the database or the Kafka cluster did not answer (503)
   */
  IngestReport report();

  /** A source made of its parts. */
  static EventSource of(
      String name, EventSink sink, FoldOnRequest folds, Supplier<IngestReport> report) {
    return new Parts(name, sink, folds, report);
  }

  /** The parts of a source, as {@link #of} joins them. */
  record Parts(String name, EventSink sink, FoldOnRequest folds, Supplier<IngestReport> reporter)
      implements EventSource {

    @Override
    public IngestReport report() {
      return reporter.get();
    }
  }
}
