package io.hotrank.ingest.kafka;

import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.LoggedEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Reads the events of a Kafka fold back from the topic, for a listener that missed the fold (Redis
 * was away, or the folder died before telling it) or replays a window. A fold's record names its
 * topic and, per partition, the offsets of the records that changed a counter: {@code
 * kafka|<topic>|<partition>:<from>-<to>,<from>-<to>|...}, partitions in the order the fold applied
 * them. Reading them back needs the topic to retain them as long as the fold's record is kept
 * ({@code hotrank.ingest.retention}) and as long as the longest window.
 *
 * <p>One consumer outside the group, used under this object's lock. Thread-safe.
 */
final class KafkaFoldReader implements FoldHistory.ForeignFolds {

  private static final String PREFIX = "kafka|";

  /**
   * The reader's consumer's {@code fetch.max.wait.ms}: how long the broker may hold a fetch that
   * finds no new records, which is every fetch the consumer sends ahead after a partition's range
   * was read, and which the next partition's fetch waits behind.
   */
  static final int FETCH_MAX_WAIT_MILLIS = 10;

  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(10);

  private final Supplier<Consumer<String, String>> consumers;
  private final EventRecords records;
  private @Nullable Consumer<String, String> consumer; // guarded by this

  KafkaFoldReader(Supplier<Consumer<String, String>> consumers, EventRecords records) {
    this.consumers = consumers;
    this.records = records;
  }

  /** The record of a fold that applied {@code effective}, in that order. */
  static String record(
      String topic, List<LoggedEvent> effective, Function<LoggedEvent, Integer> partitionOf) {
    Map<Integer, List<Long>> offsets = new LinkedHashMap<>();
    for (LoggedEvent e : effective) {
      offsets.computeIfAbsent(partitionOf.apply(e), p -> new ArrayList<>()).add(e.seq());
    }
    StringBuilder text = new StringBuilder(PREFIX).append(topic);
    offsets.forEach(
        (partition, list) -> {
          text.append('|').append(partition).append(':');
          long[] sorted = list.stream().mapToLong(Long::longValue).sorted().toArray();
          for (int i = 0; i < sorted.length; i++) {
            int j = i;
            while (j + 1 < sorted.length && sorted[j + 1] == sorted[j] + 1) {
              j++;
            }
            text.append(i == 0 ? "" : ",").append(sorted[i]).append('-').append(sorted[j]);
            i = j;
          }
        });
    return text.toString();
  }

  @Override
  public boolean owns(String record) {
    return record.startsWith(PREFIX);
  }

  @Override
  public synchronized @Nullable List<LoggedEvent> eventsOf(String record) {
    String[] parts = record.split("\\|");
    String topic = parts[1];
    List<LoggedEvent> events = new ArrayList<>();
    for (int i = 2; i < parts.length; i++) {
      int colon = parts[i].indexOf(':');
      int partition = Integer.parseInt(parts[i].substring(0, colon));
      List<long[]> ranges = new ArrayList<>();
      for (String range : parts[i].substring(colon + 1).split(",")) {
        int dash = range.indexOf('-');
        ranges.add(
            new long[] {
              Long.parseLong(range.substring(0, dash)), Long.parseLong(range.substring(dash + 1))
            });
      }
      List<LoggedEvent> read = read(new TopicPartition(topic, partition), ranges);
      if (read == null) {
        return null;
      }
      events.addAll(read);
    }
    return events;
  }

  /** The records at the given offsets, or null when the topic no longer holds the first. */
  private @Nullable List<LoggedEvent> read(TopicPartition tp, List<long[]> ranges) {
    Consumer<String, String> c = consumer();
    long from = ranges.getFirst()[0];
    long to = ranges.getLast()[1];
    // A topic deleted or renamed since (its folds are still on record) holds nothing to replay.
    List<PartitionInfo> partitions = c.partitionsFor(tp.topic(), METADATA_TIMEOUT);
    if (partitions == null || partitions.stream().noneMatch(p -> p.partition() == tp.partition())) {
      return null;
    }
    c.assign(List.of(tp));
    Long beginning = c.beginningOffsets(List.of(tp), METADATA_TIMEOUT).get(tp);
    if (beginning != null && beginning > from) {
      return null;
    }
    c.seek(tp, from);
    List<LoggedEvent> events = new ArrayList<>();
    long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
    int range = 0;
    while (c.position(tp) <= to) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "reading " + tp + " offsets " + from + " to " + to + " took over " + READ_TIMEOUT);
      }
      for (ConsumerRecord<String, String> r : c.poll(POLL).records(tp)) {
        while (range < ranges.size() && r.offset() > ranges.get(range)[1]) {
          range++;
        }
        if (range < ranges.size() && r.offset() >= ranges.get(range)[0]) {
          LoggedEvent e = records.parse(r).event();
          if (e != null) {
            events.add(e);
          }
        }
      }
    }
    return events;
  }

  private Consumer<String, String> consumer() {
    if (consumer == null) {
      consumer = consumers.get();
    }
    return consumer;
  }

  /** Closes the consumer. */
  synchronized void close() {
    if (consumer != null) {
      consumer.close(Duration.ofSeconds(5));
      consumer = null;
    }
  }
}
