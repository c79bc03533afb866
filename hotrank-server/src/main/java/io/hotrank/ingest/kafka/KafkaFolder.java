package io.hotrank.ingest.kafka;

import io.hotrank.core.score.Interactions;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldApplier;
import io.hotrank.ingest.FoldListeners;
import io.hotrank.ingest.FoldNumbers;
import io.hotrank.ingest.InFlightFolds;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.ingest.fold.EventIds;
import io.hotrank.ingest.kafka.EventRecords.Parsed;
import io.hotrank.ingest.kafka.EventRecords.Reason;
import io.hotrank.item.Bizes;
import io.hotrank.job.FaultPoints;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Folds the partitions of the events' topic that the consumer group assigns to this instance,
 * exactly once, on one thread ({@code kafka-fold}).
 *
 * <p>One fold takes what one poll returned, for every partition it returned records of (or whose
 * position moved past transaction markers), and in one database transaction: moves each of those
 * partitions' stored position from where the fold started to the consumer's position after the poll
 * ({@link KafkaFoldStore#move}, a compare-and-set that fences a folder that lost the partition
 * without noticing), leaves out the records whose event id was folded before ({@link EventIds}),
 * applies the records to the counters and the users' state ({@link FoldApplier}), takes the fold's
 * number ({@link FoldNumbers}, which records the partitions and offsets it applied for replays),
 * sends the records that cannot be folded to the dead-letter topic and counts them. Only then are
 * the Redis side's listeners told, by number, as for the event log's folds: the Redis scripts apply
 * a fold once whoever tells them, and a listener that missed one reads it back from the topic
 * ({@link KafkaFoldReader}).
 *
 * <p>Positions live in the database, not in Kafka: on assignment the partitions are paused until
 * their stored positions are read, then sought to them and resumed (a partition never folded starts
 * where {@code auto.offset.reset} says, {@code earliest} by default). After a failed fold (the
 * database, the broker, or a fence) every partition is sought back to its stored position, after a
 * pause that doubles up to 5 s. Kafka's committed offsets are written after each fold for tools
 * such as {@code kafka-consumer-groups}, and never read.
 */
final class KafkaFolder implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(KafkaFolder.class);

  static final String FAULTS = "kafka-fold";

  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration IDLE_EVERY = Duration.ofSeconds(1);
  private static final long MAX_BACKOFF_MILLIS = 5_000;
  private static final Duration PARKED_EVERY = Duration.ofSeconds(1);

  private static final List<String> REASONS =
      java.util.Arrays.stream(Reason.values()).map(Reason::wireName).toList();
  private static final int MAX_PARKED = 1_000;

  /** Where a partition stands, as this folder knows it. */
  private record Known(@Nullable Long row, long start) {}

  /** One partition's part of a fold. */
  private record Chunk(
      TopicPartition partition,
      Known known,
      long to,
      List<ConsumerRecord<String, String>> records) {}

  private final Supplier<Consumer<String, String>> consumers;
  private final boolean fromLatest;
  private final String topic;
  private final String owner;
  private final Runnable ensureTopics;
  private final InFlightFolds inFlight;
  private final long itemGraceMillis;
  private final KafkaFoldStore store;
  private final FoldApplier applier;
  private final FoldNumbers numbers;
  private final FoldListeners listeners;
  private final TransactionTemplate tx;
  private final EventRecords records;
  private final DeadLetters deadLetters;
  private final Bizes bizes;
  private final Ticker ticker;
  private final FaultPoints faults;
  private final MeterRegistry meters;
  private final Counter folds;
  private final Counter eventsFolded;
  private final Counter duplicates;
  private final EventIds eventIds;

  /** Lag per partition after the last poll, for the gauges; written by the folding thread. */
  private final Map<Integer, Long> lags = new ConcurrentHashMap<>();

  // Confined to the folding thread.
  private final Map<TopicPartition, Known> known = new HashMap<>();
  private final Set<TopicPartition> pending = new TreeSet<>(BY_PARTITION);
  private long backoffMillis;
  // Start a period in the past, so that the first checks run at once.
  private long lastIdleNanos = Long.MIN_VALUE / 2;
  private long lastParkedNanos = Long.MIN_VALUE / 2;

  private volatile boolean running;
  private volatile @Nullable Consumer<String, String> consumer;
  private @Nullable Thread thread;

  private static final Comparator<TopicPartition> BY_PARTITION =
      Comparator.comparingInt(TopicPartition::partition);

  KafkaFolder(
      Supplier<Consumer<String, String>> consumers,
      boolean fromLatest,
      String topic,
      String owner,
      Runnable ensureTopics,
      KafkaFoldStore store,
      long itemGraceMillis,
      FoldApplier applier,
      EventIds eventIds,
      FoldNumbers numbers,
      FoldListeners listeners,
      InFlightFolds inFlight,
      TransactionTemplate tx,
      EventRecords records,
      DeadLetters deadLetters,
      Bizes bizes,
      Ticker ticker,
      FaultPoints faults,
      MeterRegistry meters) {
    this.consumers = consumers;
    this.fromLatest = fromLatest;
    this.topic = topic;
    this.owner = owner;
    this.ensureTopics = ensureTopics;
    this.store = store;
    this.itemGraceMillis = itemGraceMillis;
    this.applier = applier;
    this.eventIds = eventIds;
    this.numbers = numbers;
    this.listeners = listeners;
    this.inFlight = inFlight;
    this.tx = tx;
    this.records = records;
    this.deadLetters = deadLetters;
    this.bizes = bizes;
    this.ticker = ticker;
    this.faults = faults;
    this.meters = meters;
    this.folds = meters.counter("hotrank.ingest.folds", "source", "kafka");
    this.eventsFolded = meters.counter("hotrank.ingest.events.folded", "source", "kafka");
    this.duplicates = meters.counter("hotrank.ingest.events.duplicates", "source", "kafka");
  }

  // --- the loop ---

  private void run() {
    while (running) {
      try {
        ensureTopics.run();
        store.seedDeadLetterCounts(topic, REASONS);
        backoffMillis = 0;
        consume();
      } catch (WakeupException e) {
        break;
      } catch (RuntimeException e) {
        if (!running) {
          break;
        }
        backoffMillis = Math.min(MAX_BACKOFF_MILLIS, Math.max(100, backoffMillis * 2));
        log.warn("Folding '{}' cannot start ({}); retrying in {} ms", topic, e, backoffMillis);
        sleep(backoffMillis);
      } catch (Error e) {
        log.error("The folder of '{}' stopped: nothing is folded on this instance", topic, e);
        running = false;
        throw e;
      }
    }
    deadLetters.close();
  }

  /** Joins the group and folds until stopped. */
  private void consume() {
    Consumer<String, String> c = consumers.get();
    consumer = c;
    known.clear();
    pending.clear();
    try {
      c.subscribe(List.of(topic), new Rebalance(c));
      while (running) {
        try {
          resumePending(c);
          ConsumerRecords<String, String> polled = c.poll(POLL);
          // A manual fold that sees this pass's commit waits until its listeners have been told.
          long attempt = inFlight.begin();
          try {
            recordLags(c);
            if (!fold(c, polled)) {
              idle();
            }
            foldParked();
          } finally {
            inFlight.end(attempt);
          }
          backoffMillis = 0;
        } catch (WakeupException e) {
          throw e;
        } catch (RuntimeException e) {
          if (!running) {
            break;
          }
          failed(c, e);
        }
      }
    } finally {
      consumer = null;
      try {
        c.close(Duration.ofSeconds(5));
      } catch (RuntimeException e) {
        log.debug("Closing the Kafka consumer failed: {}", e.toString());
      }
    }
  }

  /** Sends every partition back to its stored position, after a pause. */
  private void failed(Consumer<String, String> c, RuntimeException e) {
    backoffMillis = Math.min(MAX_BACKOFF_MILLIS, Math.max(100, backoffMillis * 2));
    log.warn(
        "Folding '{}' failed; every partition goes back to its stored position in {} ms: {}",
        topic,
        backoffMillis,
        e.toString());
    pending.addAll(known.keySet());
    known.clear();
    c.pause(pending);
    sleep(backoffMillis);
  }

  private void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  /** Reads the stored positions of the paused partitions, seeks to them and resumes them. */
  private void resumePending(Consumer<String, String> c) {
    if (pending.isEmpty()) {
      return;
    }
    Map<Integer, Long> stored =
        store.positions(topic, pending.stream().map(TopicPartition::partition).toList());
    List<TopicPartition> fresh = new ArrayList<>();
    Map<TopicPartition, Long> firsts = c.beginningOffsets(pending, Duration.ofSeconds(10));
    Map<TopicPartition, Long> ends = c.endOffsets(pending, Duration.ofSeconds(10));
    List<TopicPartition> stuck = new ArrayList<>();
    for (TopicPartition tp : pending) {
      Long row = stored.get(tp.partition());
      if (row == null) {
        fresh.add(tp);
        continue;
      }
      long first = firsts.getOrDefault(tp, 0L);
      if (row > ends.getOrDefault(tp, Long.MAX_VALUE)) {
        log.error(
            "Partition {} of '{}': the stored position {} is past the topic's end {}; was the"
                + " topic made again? It is not folded here until its row in hr_kafka_position is"
                + " deleted and the instance restarted (it then starts from the first record)",
            tp.partition(),
            topic,
            row,
            ends.get(tp));
        stuck.add(tp);
        continue;
      }
      if (row < first) {
        // Retention deleted records before they were folded: they are gone; said loudly.
        log.error(
            "Partition {} of '{}': records {} to {} were deleted by the topic's retention before"
                + " they were folded; folding goes on from {}",
            tp.partition(),
            topic,
            row,
            first - 1,
            first);
        meters
            .counter("hotrank.ingest.kafka.skipped", "partition", Integer.toString(tp.partition()))
            .increment(first - row);
      }
      c.seek(tp, Math.max(row, first));
      known.put(tp, new Known(row, row));
    }
    pending.removeAll(stuck);
    for (TopicPartition tp : fresh) {
      // Never folded: from where auto.offset.reset says (earliest unless set otherwise), stored at
      // once, so that the partition has a position even before its first record, and a folder
      // that takes it over later starts from the same place, not from "latest" again.
      if (fromLatest) {
        c.seekToEnd(List.of(tp));
      } else {
        c.seekToBeginning(List.of(tp));
      }
      long start = c.position(tp, Duration.ofSeconds(10));
      long row =
          store.insertIfAbsent(topic, tp.partition(), start, owner, numbers.databaseMillis());
      c.seek(tp, row);
      known.put(tp, new Known(row, row));
    }
    log.info(
        "Folding partitions {} of '{}' from {}",
        pending.stream().map(TopicPartition::partition).toList(),
        topic,
        pending.stream().map(tp -> known.get(tp).start()).toList());
    c.resume(pending);
    pending.clear();
  }

  /** Folds what the poll returned; false when there was nothing to fold. */
  private boolean fold(Consumer<String, String> c, ConsumerRecords<String, String> polled) {
    List<Chunk> chunks = new ArrayList<>();
    List<TopicPartition> assigned = new ArrayList<>(known.keySet());
    assigned.sort(BY_PARTITION);
    for (TopicPartition tp : assigned) {
      Known k = known.get(tp);
      List<ConsumerRecord<String, String>> recs = polled.records(tp);
      // Past the records returned, and past transaction markers read after them.
      long to = c.position(tp);
      if (!recs.isEmpty() || to != k.start()) {
        chunks.add(new Chunk(tp, k, to, recs));
      }
    }
    if (chunks.isEmpty()) {
      return false;
    }
    List<LoggedEvent> events = new ArrayList<>();
    Map<LoggedEvent, ConsumerRecord<String, String>> recordOf = new IdentityHashMap<>();
    Map<LoggedEvent, String> idOf = new IdentityHashMap<>();
    List<DeadLetters.Letter> dead = new ArrayList<>();
    for (Chunk chunk : chunks) {
      for (ConsumerRecord<String, String> r : chunk.records()) {
        Parsed parsed = records.parse(r);
        LoggedEvent e = parsed.event();
        // An unknown biz (or one created a moment ago on another instance) is folded as an
        // absent item is: parked for the grace, then a dead letter.
        if (e == null) {
          dead.add(DeadLetters.Letter.of(r, parsed.reason(), parsed.detail()));
        } else {
          events.add(e);
          recordOf.put(e, r);
          if (parsed.id() != null) {
            idOf.put(e, parsed.id());
          }
        }
      }
    }
    // Sent before the transaction, so that the broker is not waited on with rows locked; a fold
    // that then fails sends them again (dead letters are delivered at least once).
    deadLetters.send(dead);
    Outcome outcome = tx.execute(status -> foldLocked(chunks, events, recordOf, idOf, dead));
    numbers.makeCommitsDurable();
    Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
    for (Chunk chunk : chunks) {
      known.put(chunk.partition(), new Known(chunk.to(), chunk.to()));
      commits.put(chunk.partition(), new OffsetAndMetadata(chunk.to()));
    }
    outcome.deadByReason().forEach((reason, n) -> deadLetterCounter(reason).increment(n));
    duplicates.increment(outcome.duplicates());
    if (outcome.fold() != null) {
      folds.increment();
      eventsFolded.increment(outcome.fold().events().size());
      listeners.folded(outcome.fold());
    }
    c.commitAsync(
        commits,
        (offsets, e) -> {
          if (e != null) {
            log.debug("Committing informational offsets failed: {}", e.toString());
          }
        });
    return true;
  }

  private record Outcome(@Nullable Fold fold, Map<String, Integer> deadByReason, int duplicates) {}

  private Outcome foldLocked(
      List<Chunk> chunks,
      List<LoggedEvent> polled,
      Map<LoggedEvent, ConsumerRecord<String, String>> recordOf,
      Map<LoggedEvent, String> idOf,
      List<DeadLetters.Letter> dead) {
    long now = numbers.databaseMillis();
    for (Chunk chunk : chunks) {
      if (!store.move(
          topic, chunk.partition().partition(), chunk.known().row(), chunk.to(), owner, now)) {
        throw new StalePositionException(topic, chunk.partition().partition());
      }
    }
    // Records of one item share a partition, but two items' records may carry one id: a fold of
    // another partition that records it first makes this one fail on the key and fold again.
    List<LoggedEvent> events = polled;
    if (!idOf.isEmpty()) {
      boolean[] duplicate = eventIds.record(polled, LoggedEvent::biz, idOf::get, now);
      events = new ArrayList<>(polled.size());
      for (int i = 0; i < polled.size(); i++) {
        if (!duplicate[i]) {
          events.add(polled.get(i));
        }
      }
    }
    Fold fold = null;
    FoldApplier.Applied applied = null;
    List<DeadLetters.Letter> late = new ArrayList<>();
    if (!events.isEmpty()) {
      applied = applier.apply(events);
      List<KafkaFoldStore.Parked> parked = new ArrayList<>();
      for (LoggedEvent e : applied.notLive()) {
        ConsumerRecord<String, String> r = recordOf.get(e);
        if (itemGraceMillis > 0) {
          parked.add(
              new KafkaFoldStore.Parked(
                  r.partition(), r.offset(), r.timestamp(), r.key(), r.value(), now));
        } else {
          late.add(DeadLetters.Letter.of(r, notFoundReason(e), notFound(e)));
        }
      }
      if (!parked.isEmpty()) {
        store.park(topic, parked);
      }
    }
    // Before the fold's number: the number's row lock is held until the commit, and every
    // instance's folds wait on it, so nothing slow (the broker) happens under it.
    deadLetters.send(late);
    List<DeadLetters.Letter> all = new ArrayList<>(dead);
    all.addAll(late);
    Map<String, Integer> byReason = countDeadLetters(all);
    if (applied != null) {
      fold = number(applied, e -> recordOf.get(e).partition(), now);
    }
    faults.point(FAULTS, "before-commit", "fold=" + (fold == null ? "-" : fold.foldNo()));
    return new Outcome(fold, byReason, polled.size() - events.size());
  }

  /** Takes the fold's number and writes what it applied; inside its transaction. */
  private Fold number(
      FoldApplier.Applied applied, Function<LoggedEvent, Integer> partitionOf, long now) {
    long foldNo =
        numbers.number(
            KafkaSource.NAME, KafkaFoldReader.record(topic, applied.effective(), partitionOf), now);
    Map<Fold.ItemKey, Interactions> changed = applier.write(applied, foldNo, now);
    return new Fold(foldNo, applied.effective(), changed, applied.createdAt(), false);
  }

  /** Counts sent letters by reason; inside the fold's transaction. */
  private Map<String, Integer> countDeadLetters(List<DeadLetters.Letter> dead) {
    Map<String, Integer> byReason = new TreeMap<>();
    dead.forEach(d -> byReason.merge(d.reason().wireName(), 1, Integer::sum));
    if (!byReason.isEmpty()) {
      store.countDeadLetters(topic, byReason);
    }
    return byReason;
  }

  /** Why an event not folded for want of its item is a dead letter. */
  private Reason notFoundReason(LoggedEvent e) {
    return bizes.known(e.biz()) ? Reason.ITEM_NOT_FOUND : Reason.UNKNOWN_BIZ;
  }

  private static String notFound(LoggedEvent e) {
    return "item " + e.biz() + "/" + e.itemId() + " does not exist or is deleted";
  }

  // --- parked records ---

  /**
   * Folds the parked records of this folder's partitions whose items exist now, and sends those
   * parked longer than the grace to the dead-letter topic; at most once a second.
   */
  private void foldParked() {
    long now = ticker.read();
    if (itemGraceMillis == 0 || known.isEmpty() || now - lastParkedNanos < PARKED_EVERY.toNanos()) {
      return;
    }
    lastParkedNanos = now;
    List<Integer> partitions = known.keySet().stream().map(TopicPartition::partition).toList();
    Outcome outcome = tx.execute(status -> foldParkedLocked(partitions));
    if (outcome == null) {
      return;
    }
    numbers.makeCommitsDurable();
    outcome.deadByReason().forEach((reason, n) -> deadLetterCounter(reason).increment(n));
    if (outcome.fold() != null) {
      folds.increment();
      eventsFolded.increment(outcome.fold().events().size());
      listeners.folded(outcome.fold());
    }
  }

  private @Nullable Outcome foldParkedLocked(List<Integer> partitions) {
    List<KafkaFoldStore.Parked> rows = store.lockParked(topic, partitions, MAX_PARKED);
    if (rows.isEmpty()) {
      return null;
    }
    long now = numbers.databaseMillis();
    List<LoggedEvent> events = new ArrayList<>();
    Map<LoggedEvent, KafkaFoldStore.Parked> rowOf = new IdentityHashMap<>();
    List<KafkaFoldStore.Parked> done = new ArrayList<>();
    List<DeadLetters.Letter> dead = new ArrayList<>();
    for (KafkaFoldStore.Parked row : rows) {
      LoggedEvent e = records.parse(row.value(), row.timestamp(), row.offset()).event();
      if (e == null) {
        // It parsed when it was parked; a row that no longer does is dropped, not kept for ever.
        dead.add(letter(row, Reason.UNPARSEABLE, "the parked record no longer parses"));
        done.add(row);
      } else {
        events.add(e);
        rowOf.put(e, row);
      }
    }
    FoldApplier.Applied applied = applier.apply(events);
    Set<LoggedEvent> notLive = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    notLive.addAll(applied.notLive());
    for (LoggedEvent e : events) {
      KafkaFoldStore.Parked row = rowOf.get(e);
      if (!notLive.contains(e)) {
        done.add(row);
      } else if (now - row.parkedAt() >= itemGraceMillis) {
        dead.add(letter(row, notFoundReason(e), notFound(e)));
        done.add(row);
      }
    }
    if (done.isEmpty()) {
      return null;
    }
    if (!store.unpark(topic, done)) {
      throw new StalePositionException(topic, rows.getFirst().partition());
    }
    deadLetters.send(dead);
    Map<String, Integer> byReason = countDeadLetters(dead);
    Fold fold =
        applied.effective().isEmpty() && notLive.size() == events.size()
            ? null
            : number(applied, e -> rowOf.get(e).partition(), now);
    return new Outcome(fold, byReason, 0);
  }

  private DeadLetters.Letter letter(KafkaFoldStore.Parked row, Reason reason, String detail) {
    return new DeadLetters.Letter(
        topic,
        row.partition(),
        row.offset(),
        row.timestamp(),
        row.key(),
        row.value(),
        new RecordHeaders(),
        reason,
        detail);
  }

  private void idle() {
    long now = ticker.read();
    if (now - lastIdleNanos < IDLE_EVERY.toNanos()) {
      return;
    }
    lastIdleNanos = now;
    listeners.idle(numbers.lastFoldNo());
  }

  private void recordLags(Consumer<String, String> c) {
    for (TopicPartition tp : known.keySet()) {
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

  private Counter deadLetterCounter(String reason) {
    return meters.counter("hotrank.ingest.dead-letters", "reason", reason);
  }

  /** The partitions this instance folds now (a snapshot, for the status). */
  Map<Integer, Long> lags() {
    return Map.copyOf(lags);
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
      partitions.forEach(known::remove);
      pending.removeAll(partitions);
      partitions.forEach(tp -> lags.remove(tp.partition()));
      log.info(
          "No longer folding partitions {} of '{}'",
          partitions.stream().map(TopicPartition::partition).sorted().toList(),
          topic);
    }
  }

  // --- lifecycle ---

  @Override
  public synchronized void start() {
    if (running) {
      return;
    }
    running = true;
    thread = Thread.ofPlatform().name("kafka-fold").daemon().start(this::run);
  }

  @Override
  public void stop() {
    Thread t;
    synchronized (this) {
      running = false;
      t = thread;
      thread = null;
    }
    Consumer<String, String> c = consumer;
    if (c != null) {
      c.wakeup();
    }
    if (t != null) {
      try {
        t.join(Duration.ofSeconds(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Stopped after the web server has finished its requests, as the appender. */
  @Override
  public int getPhase() {
    return 0;
  }
}
