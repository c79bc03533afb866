package io.hotrank.ingest.kafka;

import io.hotrank.ingest.Fold;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.ingest.fold.EventIds;
import io.hotrank.ingest.fold.FoldApplier;
import io.hotrank.ingest.kafka.EventRecords.Reason;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;

/**
 * Records that cannot be folded now, and those that never will. An event whose item does not exist
 * yet (created a moment ago on another instance, or whose creation is still on its way) is parked
 * in {@code hr_kafka_parked} in the fold's transaction, retried at most once a second, folded as
 * soon as its item exists, and sent to the dead-letter topic once parked longer than {@code
 * hotrank.ingest.kafka.item-grace} (at once with a grace of 0); a record that does not parse is a
 * dead letter at once. Dead letters are sent before the fold commits and counted by reason in its
 * transaction ({@link DeadLetters}); the id of an event sent there is forgotten in that transaction
 * ({@link EventIds#forget}), so that the event replayed from the dead letters once its item exists
 * counts.
 *
 * <p>Used by the folding thread only.
 */
final class ParkedRecords {

  private static final Duration EVERY = Duration.ofSeconds(1);
  private static final int MAX_PER_PASS = 1_000;

  /** Takes a fold's number and writes what it applied; inside its transaction. */
  @FunctionalInterface
  interface Numbering {
    Fold number(FoldApplier.Applied applied, Function<LoggedEvent, Integer> partitionOf, long now);
  }

  /**
   * What a pass over the parked records did, once committed.
   *
   * @param fold the fold of those whose items exist now; null when none did
   * @param deadByReason the dead letters sent, by reason
   */
  record Refolded(@Nullable Fold fold, Map<String, Integer> deadByReason) {}

  private final String topic;
  private final long graceMillis;
  private final KafkaFoldStore store;
  private final FoldApplier applier;
  private final EventIds eventIds;
  private final EventRecords records;
  private final DeadLetters deadLetters;
  private final Predicate<String> knownBiz;
  private final LongSupplier databaseMillis;
  private final Ticker ticker;
  private final MeterRegistry meters;

  // Start a period in the past, so that the first pass runs at once.
  private long lastPassNanos = Long.MIN_VALUE / 2;

  ParkedRecords(
      String topic,
      long graceMillis,
      KafkaFoldStore store,
      FoldApplier applier,
      EventIds eventIds,
      EventRecords records,
      DeadLetters deadLetters,
      Predicate<String> knownBiz,
      LongSupplier databaseMillis,
      Ticker ticker,
      MeterRegistry meters) {
    this.topic = topic;
    this.graceMillis = graceMillis;
    this.store = store;
    this.applier = applier;
    this.eventIds = eventIds;
    this.records = records;
    this.deadLetters = deadLetters;
    this.knownBiz = knownBiz;
    this.databaseMillis = databaseMillis;
    this.ticker = ticker;
    this.meters = meters;
  }

  /**
   * Parks the events a fold found no live item for (or, with no grace, makes them dead letters);
   * inside the fold's transaction.
   *
   * @return the dead letters to send
   */
  List<DeadLetters.Letter> park(
      List<LoggedEvent> notLive,
      Function<LoggedEvent, ConsumerRecord<String, String>> recordOf,
      Function<LoggedEvent, @Nullable String> idOf,
      long now) {
    List<KafkaFoldStore.Parked> parked = new ArrayList<>();
    List<DeadLetters.Letter> dead = new ArrayList<>();
    Uncounted uncounted = new Uncounted();
    for (LoggedEvent e : notLive) {
      ConsumerRecord<String, String> r = recordOf.apply(e);
      if (graceMillis > 0) {
        parked.add(
            new KafkaFoldStore.Parked(
                r.partition(), r.offset(), r.timestamp(), r.key(), r.value(), now));
      } else {
        dead.add(DeadLetters.Letter.of(r, notFoundReason(e), notFound(e)));
        uncounted.add(e.biz(), idOf.apply(e), now);
      }
    }
    if (!parked.isEmpty()) {
      store.park(topic, parked);
    }
    uncounted.forget();
    return dead;
  }

  /**
   * The ids of events that go to the dead letters uncounted, by biz and by when the fold that met
   * them recorded them (the database's clock, which a parked row keeps as its {@code parkedAt}).
   */
  private final class Uncounted {
    private final Map<String, Map<Long, List<String>>> ids = new TreeMap<>();

    void add(String biz, @Nullable String id, long recordedAt) {
      if (id != null) {
        ids.computeIfAbsent(biz, b -> new TreeMap<>())
            .computeIfAbsent(recordedAt, t -> new ArrayList<>())
            .add(id);
      }
    }

    /** Forgets them; inside the fold's transaction. */
    void forget() {
      ids.forEach((biz, byTime) -> byTime.forEach((at, list) -> eventIds.forget(biz, list, at)));
    }
  }

  /**
   * Sends the letters and waits until the broker has them all. A fold sends those of records that
   * do not parse before its transaction begins, so that the broker is not waited on with rows
   * locked; the others inside it, before it takes its number (whose row lock every instance's folds
   * wait on). A fold that then fails sends them again: dead letters are delivered at least once.
   */
  void send(List<DeadLetters.Letter> dead) {
    deadLetters.send(dead);
  }

  /**
   * Counts sent letters by reason in the database; inside the fold's transaction, so that they are
   * counted once.
   *
   * @return the letters by reason: what {@link #counted} adds to the metrics once committed
   */
  Map<String, Integer> count(List<DeadLetters.Letter> dead) {
    Map<String, Integer> byReason = new TreeMap<>();
    dead.forEach(d -> byReason.merge(d.reason().wireName(), 1, Integer::sum));
    if (!byReason.isEmpty()) {
      store.countDeadLetters(topic, byReason);
    }
    return byReason;
  }

  /** Adds what a committed fold sent to the dead-letter metrics. */
  void counted(Map<String, Integer> byReason) {
    byReason.forEach(
        (reason, n) ->
            meters.counter("hotrank.ingest.dead-letters", "reason", reason).increment(n));
  }

  /** Whether a pass over the parked records is due: at most once a second, and with a grace. */
  boolean due() {
    long now = ticker.read();
    if (graceMillis == 0 || now - lastPassNanos < EVERY.toNanos()) {
      return false;
    }
    lastPassNanos = now;
    return true;
  }

  /**
   * Folds the parked records of {@code partitions} whose items exist now, and sends those parked
   * longer than the grace to the dead-letter topic; inside one transaction.
   *
   * @return null when nothing changed
   * @throws StalePositionException when another folder took the records meanwhile
   */
  @Nullable Refolded refold(List<Integer> partitions, Numbering numbering) {
    List<KafkaFoldStore.Parked> rows = store.lockParked(topic, partitions, MAX_PER_PASS);
    if (rows.isEmpty()) {
      return null;
    }
    long now = databaseMillis.getAsLong();
    List<LoggedEvent> events = new ArrayList<>();
    Map<LoggedEvent, KafkaFoldStore.Parked> rowOf = new IdentityHashMap<>();
    Map<LoggedEvent, String> idOf = new IdentityHashMap<>();
    Uncounted uncounted = new Uncounted();
    List<KafkaFoldStore.Parked> done = new ArrayList<>();
    List<DeadLetters.Letter> dead = new ArrayList<>();
    for (KafkaFoldStore.Parked row : rows) {
      EventRecords.Parsed parsed = records.parse(row.value(), row.timestamp(), row.offset());
      LoggedEvent e = parsed.event();
      if (e == null) {
        // It parsed when it was parked; a row that no longer does is dropped, not kept for ever.
        dead.add(letter(row, Reason.UNPARSEABLE, "the parked record no longer parses"));
        done.add(row);
      } else {
        events.add(e);
        rowOf.put(e, row);
        if (parsed.id() != null) {
          idOf.put(e, parsed.id());
        }
      }
    }
    FoldApplier.Applied applied = applier.apply(events);
    Set<LoggedEvent> notLive = Collections.newSetFromMap(new IdentityHashMap<>());
    notLive.addAll(applied.notLive());
    for (LoggedEvent e : events) {
      KafkaFoldStore.Parked row = rowOf.get(e);
      if (!notLive.contains(e)) {
        done.add(row);
      } else if (now - row.parkedAt() >= graceMillis) {
        dead.add(letter(row, notFoundReason(e), notFound(e)));
        done.add(row);
        uncounted.add(e.biz(), idOf.get(e), row.parkedAt());
      }
    }
    if (done.isEmpty()) {
      return null;
    }
    if (!store.unpark(topic, done)) {
      throw new StalePositionException(topic, rows.getFirst().partition());
    }
    send(dead);
    uncounted.forget();
    Map<String, Integer> byReason = count(dead);
    Fold fold =
        !applied.changedAny() && notLive.size() == events.size()
            ? null
            : numbering.number(applied, e -> rowOf.get(e).partition(), now);
    return new Refolded(fold, byReason);
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

  /** Why an event not folded for want of its item is a dead letter. */
  private Reason notFoundReason(LoggedEvent e) {
    return knownBiz.test(e.biz()) ? Reason.ITEM_NOT_FOUND : Reason.UNKNOWN_BIZ;
  }

  private static String notFound(LoggedEvent e) {
    return "item " + e.biz() + "/" + e.itemId() + " does not exist or is deleted";
  }

  /** Releases the dead-letter producer; when the folding thread stops. */
  void close() {
    deadLetters.close();
  }
}
