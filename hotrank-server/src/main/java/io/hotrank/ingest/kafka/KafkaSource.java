package io.hotrank.ingest.kafka;

import io.hotrank.ingest.EventSink;
import io.hotrank.ingest.EventSource;
import io.hotrank.ingest.FoldOnRequest;
import io.hotrank.ingest.IngestReport;

/**
 * A Kafka topic as the source: batches are produced in Kafka transactions ({@link KafkaEventSink}),
 * the instances' folders fold the partitions the group gives them ({@link KafkaFolder}), a manual
 * fold waits for them ({@link KafkaFoldBarrier}), and a fold is read back from the topic by the
 * offsets its record names ({@link KafkaFoldReader}).
 */
final class KafkaSource implements EventSource {

  /** What {@code hotrank.ingest.source} names it, and what its folds' records are tagged with. */
  static final String NAME = "kafka";

  private final EventSink sink;
  private final FoldOnRequest folds;
  private final KafkaReporter reporter;

  KafkaSource(EventSink sink, FoldOnRequest folds, KafkaReporter reporter) {
    this.sink = sink;
    this.folds = folds;
    this.reporter = reporter;
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

  @Override
  public IngestReport report() {
    return reporter.report();
  }
}
