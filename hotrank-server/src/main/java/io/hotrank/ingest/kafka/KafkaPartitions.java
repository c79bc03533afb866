package io.hotrank.ingest.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partitions one folder holds, and where each stands. Positions live in the database ({@link
 * KafkaFoldStore}), not in Kafka: a partition the group assigns is paused until its stored position
 * is read, then sought to it and resumed (one never folded starts where {@code auto.offset.reset}
 * says, and its start is stored at once, so that a folder that takes it over later starts from the
 * same place); a failed fold sends every partition back to its stored position the same way; a
 * revoked or lost partition is forgotten at once.
 *
 * <p>Confined to the folding thread (the consumer calls the rebalance listener inside {@code poll},
 * on that thread), but for the lags, which the gauges read.
 */
final class KafkaPartitions {

  private static final Logger log = LoggerFactory.getLogger(KafkaPartitions.class);

  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(10);

  private static final Comparator<TopicPartition> BY_PARTITION =
      Comparator.comparingInt(TopicPartition::partition);

  /**
   * One partition's part of a fold.
   *
   * @param from the partition's stored position, which the fold moves from (compare-and-set)
   * @param to the consumer's position after the poll: past the records returned, and past the
   *     transaction markers read after them
   */
  record Chunk(
      TopicPartition partition, long from, long to, List<ConsumerRecord<String, String>> records) {}

  private final String topic;
  private final String owner;
  private final boolean fromLatest;
  private final KafkaFoldStore store;
  private final LongSupplier databaseMillis;
  private final MeterRegistry meters;

  /** The stored position of each partition held and resumed. */
  private final Map<TopicPartition, Long> positions = new HashMap<>();

  /** Partitions held but paused until their stored positions are read. */
  private final Set<TopicPartition> pending = new TreeSet<>(BY_PARTITION);

  /** Lag per partition after the last poll, for the gauges; written by the folding thread. */
  private final Map<Integer, Long> lags = new ConcurrentHashMap<>();

  KafkaPartitions(
      String topic,
      String owner,
      boolean fromLatest,
      KafkaFoldStore store,
      LongSupplier databaseMillis,
      MeterRegistry meters) {
    this.topic = topic;
    this.owner = owner;
    this.fromLatest = fromLatest;
    this.store = store;
    this.databaseMillis = databaseMillis;
    this.meters = meters;
  }

  /** Subscribes {@code c} to the topic, with this object told of every rebalance. */
  void subscribe(Consumer<String, String> c) {
    positions.clear();
    pending.clear();
    c.subscribe(List.of(topic), new Rebalance(c));
  }

  /** The partitions held and resumed, by number. */
  List<Integer> held() {
    return positions.keySet().stream().map(TopicPartition::partition).sorted().toList();
  }

  /**
   * Sends every partition back to its stored position: paused now, sought and resumed by the next
   * {@link #resumePending}. What a failed fold does, whose positions the database rolled back.
   */
  void reset(Consumer<String, String> c) {
    pending.addAll(positions.keySet());
    positions.clear();
    c.pause(pending);
  }

  /** Reads the stored positions of the paused partitions, seeks to them and resumes them. */
  void resumePending(Consumer<String, String> c) {
    if (pending.isEmpty()) {
      return;
    }
    Map<Integer, Long> stored =
        store.positions(topic, pending.stream().map(TopicPartition::partition).toList());
    Map<TopicPartition, Long> firsts = c.beginningOffsets(pending, METADATA_TIMEOUT);
    Map<TopicPartition, Long> ends = c.endOffsets(pending, METADATA_TIMEOUT);
    List<TopicPartition> fresh = new ArrayList<>();
    List<TopicPartition> stuck = new ArrayList<>();
    for (TopicPartition tp : pending) {
      Long row = stored.get(tp.partition());
      if (row == null) {
        fresh.add(tp);
      } else if (row > ends.getOrDefault(tp, Long.MAX_VALUE)) {
        log.error(
            "Partition {} of '{}': the stored position {} is past the topic's end {}; was the"
                + " topic made again? It is not folded here until its row in hr_kafka_position is"
                + " deleted and the instance restarted (it then starts from the first record)",
            tp.partition(),
            topic,
            row,
            ends.get(tp));
        stuck.add(tp);
      } else {
        long first = firsts.getOrDefault(tp, 0L);
        if (row < first) {
          skipped(tp, row, first);
        }
        c.seek(tp, Math.max(row, first));
        positions.put(tp, row);
      }
    }
    pending.removeAll(stuck);
    for (TopicPartition tp : fresh) {
      // Never folded: from where auto.offset.reset says, stored at once, so that the partition has
      // a position even before its first record.
      if (fromLatest) {
        c.seekToEnd(List.of(tp));
      } else {
        c.seekToBeginning(List.of(tp));
      }
      long start = c.position(tp, METADATA_TIMEOUT);
      long row =
          store.insertIfAbsent(topic, tp.partition(), start, owner, databaseMillis.getAsLong());
      c.seek(tp, row);
      positions.put(tp, row);
    }
    log.info(
        "Folding partitions {} of '{}' from {}",
        pending.stream().map(TopicPartition::partition).toList(),
        topic,
        pending.stream().map(positions::get).toList());
    c.resume(pending);
    pending.clear();
  }

  /** Retention deleted records before they were folded: they are gone; said loudly. */
  private void skipped(TopicPartition tp, long row, long first) {
    log.error(
        "Partition {} of '{}': records {} to {} were deleted by the topic's retention before they"
            + " were folded; folding goes on from {}",
        tp.partition(),
        topic,
        row,
        first - 1,
        first);
    meters
        .counter("hotrank.ingest.kafka.skipped", "partition", Integer.toString(tp.partition()))
        .increment(first - row);
  }

  /**
   * What a fold of {@code polled} takes: per partition held, in partition order, the records
   * returned, or none where only the position moved (past transaction markers); empty when nothing
   * moved.
   */
  List<Chunk> chunks(Consumer<String, String> c, ConsumerRecords<String, String> polled) {
    List<TopicPartition> held = new ArrayList<>(positions.keySet());
    held.sort(BY_PARTITION);
    List<Chunk> chunks = new ArrayList<>();
    for (TopicPartition tp : held) {
      long from = positions.get(tp);
      List<ConsumerRecord<String, String>> records = polled.records(tp);
      long to = c.position(tp);
      if (!records.isEmpty() || to != from) {
        chunks.add(new Chunk(tp, from, to, records));
      }
    }
    return chunks;
  }

  /**
   * The fold of {@code chunks} committed: their partitions' stored positions moved to where the
   * chunks end.
   *
   * @return the offsets to commit to Kafka, for tools such as {@code kafka-consumer-groups}
   */
  Map<TopicPartition, OffsetAndMetadata> folded(List<Chunk> chunks) {
    Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
    for (Chunk chunk : chunks) {
      positions.put(chunk.partition(), chunk.to());
      commits.put(chunk.partition(), new OffsetAndMetadata(chunk.to()));
    }
    return commits;
  }

  /** Records each held partition's lag after a poll, for the gauges. */
  void recordLags(Consumer<String, String> c) {
    for (TopicPartition tp : positions.keySet()) {
      c.currentLag(tp)
          .ifPresent(
              lag -> {
                if (lags.put(tp.partition(), lag) == null) {
                  meters.gauge(
                      "hotrank.ingest.kafka.lag",
                      List.of(Tag.of("partition", Integer.toString(tp.partition()))),
                      lags,
                      m -> m.getOrDefault(tp.partition(), 0L));
                }
              });
    }
  }

  /** Gives partitions to the folder and takes them back; called inside poll, on its thread. */
  private final class Rebalance implements ConsumerRebalanceListener {
    private final Consumer<String, String> c;

    Rebalance(Consumer<String, String> c) {
      this.c = c;
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      if (partitions.isEmpty()) {
        return;
      }
      c.pause(partitions);
      pending.addAll(partitions);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      forget(partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      forget(partitions);
    }

    private void forget(Collection<TopicPartition> partitions) {
      if (partitions.isEmpty()) {
        return;
      }
      partitions.forEach(positions::remove);
      pending.removeAll(partitions);
      partitions.forEach(tp -> lags.remove(tp.partition()));
      log.info(
          "No longer folding partitions {} of '{}'",
          partitions.stream().map(TopicPartition::partition).sorted().toList(),
          topic);
    }
  }
}
