package io.hotrank.ingest.kafka;

import io.hotrank.ingest.IngestReport;
import io.hotrank.ingest.fold.FoldNumbers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * The Kafka source's report: per partition, the group's owner now (from the cluster), where the
 * folds stand (from the database, written by whichever instance folded it) and the end offset for
 * committed reads (from the cluster); the dead letters by reason (from the database). The same on
 * every instance.
 */
final class KafkaReporter {

  private final KafkaTopics topics;
  private final KafkaFoldStore positions;
  private final FoldNumbers numbers;
  private final IntSupplier queued;

  KafkaReporter(
      KafkaTopics topics, KafkaFoldStore positions, FoldNumbers numbers, IntSupplier queued) {
    this.topics = topics;
    this.positions = positions;
    this.numbers = numbers;
    this.queued = queued;
  }

  IngestReport report() {
    Map<Integer, Long> ends = topics.endOffsets();
    Map<Integer, String> owners = topics.owners();
    Map<Integer, Long> stored = positions.positions(topics.topic(), ends.keySet());
    List<IngestReport.Partition> partitions = new ArrayList<>();
    long lag = 0;
    for (Map.Entry<Integer, Long> end : ends.entrySet()) {
      long position = stored.getOrDefault(end.getKey(), 0L);
      long partitionLag = Math.max(0, end.getValue() - position);
      lag += partitionLag;
      partitions.add(
          new IngestReport.Partition(
              end.getKey(), owners.get(end.getKey()), position, end.getValue(), partitionLag));
    }
    return new IngestReport.Kafka(
        "kafka",
        topics.topic(),
        topics.group(),
        topics.deadLetterTopic(),
        partitions,
        lag,
        positions.deadLetters(topics.topic()),
        positions.parkedCount(topics.topic()),
        numbers.lastFoldNo(),
        queued.getAsInt());
  }
}
