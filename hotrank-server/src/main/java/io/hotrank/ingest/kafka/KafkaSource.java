package io.hotrank.ingest.kafka;

import io.hotrank.ingest.EventSink;
import io.hotrank.ingest.EventSource;

/**
 * A Kafka topic as the source: batches are produced in Kafka transactions ({@link KafkaEventSink}),
 * the instances' folders fold the partitions the group gives them ({@link KafkaFolder}), and a
 * manual fold waits for them ({@link KafkaFoldBarrier}); a fold is read back from the topic by the
 * offsets its record names ({@link KafkaFoldReader}, a bean of its own).
 */
final class KafkaSource {

  /** What {@code hotrank.ingest.source} names it, and what its folds' records are tagged with. */
  static final String NAME = "kafka";

  private KafkaSource() {}

  static EventSource of(EventSink sink, KafkaFoldBarrier folds, KafkaReporter reporter) {
    return EventSource.of(NAME, sink, folds, reporter::report);
  }
}
