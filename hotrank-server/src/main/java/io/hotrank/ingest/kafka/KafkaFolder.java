package io.hotrank.ingest.kafka;

import io.hotrank.ingest.EventIngest;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.ingest.fold.EventIds;
import io.hotrank.ingest.fold.FoldApplier;
import io.hotrank.ingest.fold.FoldListeners;
import io.hotrank.ingest.fold.FoldNumbers;
import io.hotrank.ingest.fold.FoldWeights;
import io.hotrank.ingest.fold.InFlightFolds;
import io.hotrank.ingest.kafka.EventRecords.Parsed;
import io.hotrank.ingest.kafka.EventRecords.Reason;
import io.hotrank.item.Counters;
import io.hotrank.job.FaultPoints;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
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
 * applies the records to the counters and the users' state ({@link FoldApplier}), sends the records
 * that cannot be folded to the dead-letter topic and counts them, then takes the fold's number
 * ({@link FoldNumbers}, which records the partitions and offsets it applied for replays; its row
 * lock, which every instance's folds wait on, is held from there to the commit). Only then are the
 * Redis side's listeners told, by number, as for the event log's folds: the Redis scripts apply a
 * fold once whoever tells them, and a listener that missed one reads it back from the topic ({@link
 * KafkaFoldReader}).
 *
 * <p>Which partitions it holds and where each stands is {@link KafkaPartitions}'s: positions live
 * in the database, not in Kafka. After a failed fold (the database, the broker, or a fence) every
 * partition goes back to its stored position, after a pause that doubles up to 5 s. Records whose
 * item does not exist yet, and those that cannot be folded at all, are {@link ParkedRecords}'s.
 * Kafka's committed offsets are written after each fold for tools such as {@code
 * kafka-consumer-groups}, and never read.
 */
final class KafkaFolder implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(KafkaFolder.class);

  static final String FAULTS = "kafka-fold";

  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration IDLE_EVERY = Duration.ofSeconds(1);
  private static final long MAX_BACKOFF_MILLIS = 5_000;

  private static final List<String> REASONS =
      java.util.Arrays.stream(Reason.values()).map(Reason::wireName).toList();

  private final Supplier<Consumer<String, String>> consumers;
  private final String topic;
  private final Runnable ensureTopics;
  private final KafkaPartitions partitions;
  private final ParkedRecords parked;
  private final InFlightFolds inFlight;
  private final KafkaFoldStore store;
  private final String owner;
  private final FoldApplier applier;
  private final EventIds eventIds;
  private final FoldNumbers numbers;
  private final FoldListeners listeners;
  private final TransactionTemplate tx;
  private final EventRecords records;
  private final Ticker ticker;
  private final FaultPoints faults;
  private final Counter folds;
  private final Counter eventsFolded;
  private final Counter duplicates;

  // Confined to the folding thread.
  private long backoffMillis;
  // Start a period in the past, so that the first check runs at once.
  private long lastIdleNanos = Long.MIN_VALUE / 2;

  private volatile boolean running;
  private volatile @Nullable Consumer<String, String> consumer;
  private @Nullable Thread thread;

  /**
   * @param partitions the partitions this folder holds; its own
   * @param parked the parked records of its partitions; its own
   */
  KafkaFolder(
      Supplier<Consumer<String, String>> consumers,
      String topic,
      String owner,
      Runnable ensureTopics,
      KafkaPartitions partitions,
      ParkedRecords parked,
      KafkaFoldStore store,
      FoldApplier applier,
      EventIds eventIds,
      FoldNumbers numbers,
      FoldListeners listeners,
      InFlightFolds inFlight,
      TransactionTemplate tx,
      EventRecords records,
      Ticker ticker,
      FaultPoints faults,
      MeterRegistry meters) {
    this.consumers = consumers;
    this.topic = topic;
    this.owner = owner;
    this.ensureTopics = ensureTopics;
    this.partitions = partitions;
    this.parked = parked;
    this.store = store;
    this.applier = applier;
    this.eventIds = eventIds;
    this.numbers = numbers;
    this.listeners = listeners;
    this.inFlight = inFlight;
    this.tx = tx;
    this.records = records;
    this.ticker = ticker;
    this.faults = faults;
    this.folds = meters.counter("hotrank.ingest.folds", "source", KafkaSource.NAME);
    this.eventsFolded = meters.counter("hotrank.ingest.events.folded", "source", KafkaSource.NAME);
    this.duplicates = EventIngest.duplicates(meters, KafkaSource.NAME);
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
    parked.close();
  }

  /** Joins the group and folds until stopped. */
  private void consume() {
    Consumer<String, String> c = consumers.get();
    consumer = c;
    try {
      partitions.subscribe(c);
      while (running) {
        try {
          partitions.resumePending(c);
          ConsumerRecords<String, String> polled = c.poll(POLL);
          // A manual fold that sees this pass's commit waits until its listeners have been told.
          long attempt = inFlight.begin();
          try {
            partitions.recordLags(c);
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
    partitions.reset(c);
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

  // --- a fold ---

  /** Folds what the poll returned; false when there was nothing to fold. */
  private boolean fold(Consumer<String, String> c, ConsumerRecords<String, String> polled) {
    List<KafkaPartitions.Chunk> chunks = partitions.chunks(c, polled);
    if (chunks.isEmpty()) {
      return false;
    }
    List<LoggedEvent> events = new ArrayList<>();
    Map<LoggedEvent, ConsumerRecord<String, String>> recordOf = new IdentityHashMap<>();
    Map<LoggedEvent, String> idOf = new IdentityHashMap<>();
    List<DeadLetters.Letter> dead = new ArrayList<>();
    for (KafkaPartitions.Chunk chunk : chunks) {
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
    parked.send(dead);
    Outcome outcome = tx.execute(status -> foldLocked(chunks, events, recordOf, idOf, dead));
    numbers.makeCommitsDurable();
    Map<TopicPartition, OffsetAndMetadata> commits = partitions.folded(chunks);
    duplicates.increment(outcome.duplicates());
    committed(outcome.fold(), outcome.deadByReason());
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
      List<KafkaPartitions.Chunk> chunks,
      List<LoggedEvent> polled,
      Map<LoggedEvent, ConsumerRecord<String, String>> recordOf,
      Map<LoggedEvent, String> idOf,
      List<DeadLetters.Letter> dead) {
    long now = numbers.databaseMillis();
    for (KafkaPartitions.Chunk chunk : chunks) {
      int partition = chunk.partition().partition();
      if (!store.move(topic, partition, chunk.from(), chunk.to(), owner, now)) {
        throw new StalePositionException(topic, partition);
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
    FoldApplier.Applied applied = events.isEmpty() ? null : applier.apply(events);
    List<DeadLetters.Letter> late =
        applied == null ? List.of() : parked.park(applied.notLive(), recordOf::get, idOf::get, now);
    parked.send(late);
    List<DeadLetters.Letter> all = new ArrayList<>(dead);
    all.addAll(late);
    Map<String, Integer> byReason = parked.count(all);
    Fold fold = applied == null ? null : number(applied, e -> recordOf.get(e).partition(), now);
    faults.point(FAULTS, "before-commit", "fold=" + (fold == null ? "-" : fold.foldNo()));
    return new Outcome(fold, byReason, polled.size() - events.size());
  }

  /** Takes the fold's number and writes what it applied; inside its transaction. */
  private Fold number(
      FoldApplier.Applied applied, Function<LoggedEvent, Integer> partitionOf, long now) {
    FoldNumbers.Taken taken = numbers.take(now);
    Map<Fold.ItemKey, Counters> changed = applier.write(applied, taken.foldNo(), now);
    List<FoldedEvent> effective = KafkaFoldReader.inReadOrder(applied.effective(), partitionOf);
    numbers.record(
        taken.foldNo(),
        KafkaSource.NAME,
        KafkaFoldReader.record(topic, effective, partitionOf),
        FoldWeights.encode(effective),
        taken.position(),
        now);
    return new Fold(taken.foldNo(), effective, changed, applied.createdAt(), false);
  }

  /** Counts a committed fold, and tells the listeners of it. */
  private void committed(@Nullable Fold fold, Map<String, Integer> deadByReason) {
    parked.counted(deadByReason);
    if (fold != null) {
      folds.increment();
      eventsFolded.increment(fold.events().size());
      listeners.folded(fold);
    }
  }

  /** Folds the parked records whose items exist now, at most once a second. */
  private void foldParked() {
    List<Integer> held = partitions.held();
    if (held.isEmpty() || !parked.due()) {
      return;
    }
    ParkedRecords.Refolded refolded = tx.execute(status -> parked.refold(held, this::number));
    if (refolded != null) {
      numbers.makeCommitsDurable();
      committed(refolded.fold(), refolded.deadByReason());
    }
  }

  private void idle() {
    long now = ticker.read();
    if (now - lastIdleNanos < IDLE_EVERY.toNanos()) {
      return;
    }
    lastIdleNanos = now;
    listeners.idle(numbers.lastFoldNo());
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
