package io.hotrank.ingest.log;

import io.hotrank.ingest.EventSink;
import io.hotrank.ingest.EventSource;
import io.hotrank.ingest.FoldOnRequest;
import io.hotrank.ingest.IngestReport;

/**
 * The event log as the source: batches are appended to {@code hr_event_log} ({@link LogEventSink}),
 * and the {@code event-fold} job folds it in seq order ({@link FoldJobs}); a manual fold folds here
 * and now.
 */
final class LogSource implements EventSource {

  /** What {@code hotrank.ingest.source} names it, and what its folds' records are tagged with. */
  static final String NAME = "log";

  private final EventSink sink;
  private final IngestStatus status;
  private final FoldOnRequest folds;

  LogSource(EventSink sink, FoldJobs jobs, IngestStatus status) {
    this.sink = sink;
    this.status = status;
    this.folds =
        new FoldOnRequest() {
          @Override
          public Summary foldAll(int maxFolds, Progress progress) {
            return jobs.foldAll(maxFolds, progress);
          }

          @Override
          public void awaitAccepted() {
            jobs.awaitAccepted();
          }
        };
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public EventSink sink() {
    return sink;
  }

  @Override
  public FoldOnRequest folds() {
    return folds;
  }

  /** The log's head and the cursor. */
  @Override
  public IngestReport report() {
    IngestStatus.Reading r = status.read();
    return new IngestReport.Log(
        NAME, r.head(), r.position(), r.openGaps(), r.foldNo(), r.lag(), r.queuedHere());
  }
}
