package io.hotrank.ingest.kafka;

import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.ingest.fold.FoldReader;
import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
final class KafkaFoldReader implements FoldReader {

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

  private final Ticker ticker;

  KafkaFoldReader(
      Supplier<Consumer<String, String>> consumers, EventRecords records, Ticker ticker) {
    this.ticker = ticker;
    this.consumers = consumers;
    this.records = records;
  }

  /**
   * A fold's events in the order its record reads them back: by partition, the partitions in the
   * order the fold first applied them, and by offset within each (the order the fold applied each
   * item's events, all of them in the item's partition).
   */
  static List<FoldedEvent> inReadOrder(
      List<FoldedEvent> effective, Function<LoggedEvent, Integer> partitionOf) {
    Map<Integer, List<FoldedEvent>> byPartition = new LinkedHashMap<>();
    for (FoldedEvent e : effective) {
      byPartition.computeIfAbsent(partitionOf.apply(e.event()), p -> new ArrayList<>()).add(e);
    }
    List<FoldedEvent> ordered = new ArrayList<>(effective.size());
    byPartition
        .values()
        .forEach(
            list -> {
              list.sort(java.util.Comparator.comparingLong(e -> e.event().seq()));
              ordered.addAll(list);
            });
    return ordered;
  }

  /** The record of a fold that applied {@code effective}, by partition in that order. */
  static String record(
      String topic, List<FoldedEvent> effective, Function<LoggedEvent, Integer> partitionOf) {
    Map<Integer, List<Long>> offsets = new LinkedHashMap<>();
    for (FoldedEvent e : effective) {
      offsets
          .computeIfAbsent(partitionOf.apply(e.event()), p -> new ArrayList<>())
          .add(e.event().seq());
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
  public String source() {
    return KafkaSource.NAME;
  }

  /** The events of the fold whose record is {@code record}; null past the topic's retention. */
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

  /**
   * What was read of a partition, contiguously: every record at offsets {@code from} to {@code next
   * - 1} that a committed read returns (the offsets between are transaction markers and aborted
   * records). Replays read consecutive folds, whose ranges follow each other: a fetch brings far
   * more than one fold's records, and the next folds are served from here.
   */
  private static final class Span {
    long from;
    long next;
    long usedNanos;
    final TreeMap<Long, ConsumerRecord<String, String>> records = new TreeMap<>();

    Span(long from) {
      this.from = from;
      this.next = from;
    }
  }

  /** A partition's bounds as last asked, and when. */
  private record Bounds(long beginning, long end, long askedNanos) {}

  /** Records kept per partition at most (about a fetch's worth); the oldest go first. */
  static final int SPAN_RECORDS = 10_000;

  /** A partition's records not read for this long are dropped. */
  private static final Duration SPAN_IDLE = Duration.ofSeconds(30);

  private static final Duration BOUNDS_FRESH = Duration.ofSeconds(5);

  private final Map<TopicPartition, Span> spans = new HashMap<>(); // guarded by this
  private final Map<TopicPartition, Bounds> bounds = new HashMap<>(); // guarded by this

  /** The records at the given offsets, or null when the topic no longer holds them. */
  private @Nullable List<LoggedEvent> read(TopicPartition tp, List<long[]> ranges) {
    long now = ticker.read();
    spans.values().removeIf(s -> now - s.usedNanos > SPAN_IDLE.toNanos());
    Bounds b = bounds(tp, ranges.getLast()[1]);
    if (b == null || b.beginning() > ranges.getFirst()[0] || b.end() <= ranges.getLast()[1]) {
      // Past the topic's retention, or the topic was deleted (and maybe made again) since.
      return null;
    }
    List<LoggedEvent> events = new ArrayList<>();
    for (long[] range : ranges) {
      Span span = spans.get(tp);
      if (span == null || range[0] < span.from || range[0] > span.next) {
        // Not where the last read ended (a fold's ranges may lie far apart: a parked record is
        // folded long after its neighbours): read from the range's start.
        span = new Span(range[0]);
        spans.put(tp, span);
      }
      span.usedNanos = now;
      if (span.next <= range[1]) {
        extend(tp, span, range[1]);
      }
      for (ConsumerRecord<String, String> r :
          span.records.subMap(range[0], true, range[1], true).values()) {
        LoggedEvent e = records.parse(r).event();
        if (e != null) {
          events.add(e);
        }
      }
      // What lies before this range is behind the replay; what lies after is kept for the next
      // fold, up to a fetch's worth.
      span.records.headMap(range[1], true).clear();
      span.from = range[1] + 1;
      while (span.records.size() > SPAN_RECORDS) {
        span.next = span.records.pollLastEntry().getKey();
      }
    }
    return events;
  }

  /** Reads the partition on from {@code span.next} until past {@code to}. */
  private void extend(TopicPartition tp, Span span, long to) {
    Consumer<String, String> c = consumer();
    if (!c.assignment().equals(Set.of(tp))) {
      c.assign(List.of(tp));
    }
    c.seek(tp, span.next);
    long deadline = ticker.read() + READ_TIMEOUT.toNanos();
    while (span.next <= to) {
      if (ticker.read() > deadline) {
        throw new IllegalStateException(
            "reading " + tp + " up to offset " + to + " took over " + READ_TIMEOUT);
      }
      for (ConsumerRecord<String, String> r : c.poll(POLL).records(tp)) {
        span.records.put(r.offset(), r);
      }
      span.next = c.position(tp);
    }
  }

  /**
   * The partition's first and end offsets, asked again when older than {@link #BOUNDS_FRESH} or
   * when {@code to} lies past the end last seen; null when the topic or partition does not exist.
   */
  private @Nullable Bounds bounds(TopicPartition tp, long to) {
    Bounds b = bounds.get(tp);
    long now = ticker.read();
    if (b != null
        && now - b.askedNanos() < BOUNDS_FRESH.toNanos()
        && (b.end() > to || b.end() < 0)) {
      return b.end() < 0 ? null : b;
    }
    Consumer<String, String> c = consumer();
    List<PartitionInfo> partitions = c.partitionsFor(tp.topic(), METADATA_TIMEOUT);
    if (partitions == null || partitions.stream().noneMatch(p -> p.partition() == tp.partition())) {
      bounds.put(tp, new Bounds(-1, -1, now));
      return null;
    }
    Long beginning = c.beginningOffsets(List.of(tp), METADATA_TIMEOUT).get(tp);
    Long end = c.endOffsets(List.of(tp), METADATA_TIMEOUT).get(tp);
    b = new Bounds(beginning == null ? 0 : beginning, end == null ? 0 : end, now);
    bounds.put(tp, b);
    return b;
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
      spans.clear();
      bounds.clear();
    }
  }
}
