package io.hotrank.ingest.log;

import io.hotrank.ingest.EventSink;
import io.hotrank.ingest.EventSource;
import io.hotrank.ingest.IngestReport;

/**
 * The event log as the source: batches are appended to {@code hr_event_log} ({@link LogEventSink}),
 * the {@code event-fold} job folds it in seq order, and a manual fold folds here and now ({@link
 * FoldJobs}); the report reads the log's head and the cursor ({@link IngestStatus}).
 */
final class LogSource {

  /** What {@code hotrank.ingest.source} names it, and what its folds' records are tagged with. */
  static final String NAME = "log";

  private LogSource() {}

  static EventSource of(EventSink sink, FoldJobs jobs, IngestStatus status) {
    return EventSource.of(
        NAME,
        sink,
        jobs,
        () -> {
          IngestStatus.Reading r = status.read();
          return new IngestReport.Log(
              NAME, r.head(), r.position(), r.openGaps(), r.foldNo(), r.lag(), r.queuedHere());
        });
  }
}
