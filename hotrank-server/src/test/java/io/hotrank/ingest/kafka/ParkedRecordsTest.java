package io.hotrank.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.ingest.Fold;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.ingest.fold.EventIds;
import io.hotrank.ingest.fold.FoldApplier;
import io.hotrank.ingest.fold.UserActionStore;
import io.hotrank.item.CounterStore;
import io.hotrank.item.ItemCards;
import io.hotrank.item.ItemStore;
import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import io.hotrank.trust.ActorWeights;
import io.hotrank.trust.TrustProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records a Kafka fold cannot fold now, against a real database (H2, as the embedded default) and
 * Kafka's mock producer as the dead-letter topic: an event whose item does not exist yet waits in
 * {@code hr_kafka_parked} and is folded once the item exists; past the grace it is a dead letter,
 * sent with its reason and counted once.
 */
class ParkedRecordsTest {

  @RegisterExtension static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.H2);

  private static final Duration GRACE = Duration.ofMinutes(1);

  private final String biz = "parked-" + UUID.randomUUID().toString().substring(0, 8);
  private final String topic = "parked-" + UUID.randomUUID();
  private final KafkaFoldStore store = new KafkaFoldStore(DATABASE.jdbc());
  private final CounterStore counters = new CounterStore(DATABASE.jdbc(), DATABASE.dialect());
  private final FoldApplier applier =
      new FoldApplier(
          counters,
          new UserActionStore(DATABASE.jdbc(), DATABASE.dialect()),
          ActorWeights.reading(DATABASE.jdbc(), DATABASE.dialect(), TrustProperties.defaults()));
  private final EventIds eventIds = new EventIds(DATABASE.jdbc(), DATABASE.dialect());
  private final MockProducer<String, String> producer =
      new MockProducer<>(true, null, new StringSerializer(), new StringSerializer());
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final AtomicLong tickerNanos = new AtomicLong();
  private final AtomicLong foldNos = new AtomicLong(1_000_000);
  private final ParkedRecords.Numbering numbering =
      (applied, partitionOf, now) -> {
        long foldNo = foldNos.incrementAndGet();
        var counters = applier.write(applied, foldNo, now);
        return new Fold(foldNo, applied.effective(), counters, applied.createdAt(), false);
      };

  private ParkedRecords parked(Duration grace) {
    return new ParkedRecords(
        topic,
        grace.toMillis(),
        store,
        applier,
        eventIds,
        new EventRecords(JsonMapper.builder().build()),
        new DeadLetters(Map.of(), "dead-letters", 1_000, config -> producer),
        biz::equals,
        System::currentTimeMillis,
        tickerNanos::get,
        meters);
  }

  @Test
  void anEventOfAnItemNotYetCreated_isParked_andFoldedOnceTheItemExists() {
    ParkedRecords parked = parked(GRACE);
    ConsumerRecord<String, String> record = view(biz, 1, 5);

    List<DeadLetters.Letter> dead = fold(parked, record, System.currentTimeMillis());

    assertThat(dead).isEmpty();
    assertThat(store.parkedCount(topic)).isEqualTo(1);
    assertThat(refold(parked)).isNull(); // the item still does not exist, and the grace runs

    createItem(1);
    ParkedRecords.Refolded refolded = refold(parked);

    assertThat(refolded).isNotNull();
    assertThat(refolded.fold()).isNotNull();
    assertThat(refolded.fold().events())
        .extracting(e -> e.event().seq(), e -> e.event().itemId())
        .containsExactly(org.assertj.core.groups.Tuple.tuple(5L, 1L));
    assertThat(refolded.deadByReason()).isEmpty();
    assertThat(views(1)).isEqualTo(1);
    assertThat(idKept(biz, 5)).isTrue();
    assertThat(store.parkedCount(topic)).isZero();
    assertThat(producer.history()).isEmpty();
    assertThat(refold(parked)).isNull(); // folded once
    assertThat(views(1)).isEqualTo(1);
  }

  @Test
  void aRecordParkedLongerThanTheGrace_isADeadLetter_sentWithItsReason_andCountedOnce() {
    ParkedRecords parked = parked(GRACE);
    ConsumerRecord<String, String> record = view(biz, 2, 9);
    fold(parked, record, System.currentTimeMillis() - GRACE.toMillis() - 1_000);

    ParkedRecords.Refolded refolded = refold(parked);

    assertThat(refolded).isNotNull();
    assertThat(refolded.fold()).isNull();
    assertThat(refolded.deadByReason()).isEqualTo(Map.of("item-not-found", 1));
    ProducerRecord<String, String> letter = producer.history().getFirst();
    assertThat(producer.history()).hasSize(1);
    assertThat(letter.topic()).isEqualTo("dead-letters");
    assertThat(letter.value()).isEqualTo(record.value());
    assertThat(header(letter, "hotrank-dlt-reason")).isEqualTo("item-not-found");
    assertThat(header(letter, "hotrank-dlt-offset")).isEqualTo("9");
    assertThat(store.deadLetters(topic)).isEqualTo(Map.of("item-not-found", 1L));
    // Never counted: its id is forgotten, so that the record replayed from the letters counts.
    assertThat(idKept(biz, 9)).isFalse();
    assertThat(store.parkedCount(topic)).isZero();
    parked.counted(refolded.deadByReason());
    assertThat(meters.counter("hotrank.ingest.dead-letters", "reason", "item-not-found").count())
        .isEqualTo(1);
    assertThat(refold(parked)).isNull();
  }

  /**
   * One pass folds the parked records whose items exist and dead-letters those past the grace; the
   * letters are with the broker before the fold takes its number (whose lock every fold waits on).
   */
  @Test
  void onePass_foldsWhatCanBeFolded_andSendsTheLettersBeforeTakingTheFoldsNumber() {
    ParkedRecords parked = parked(GRACE);
    fold(parked, view(biz, 3, 11), System.currentTimeMillis());
    fold(parked, view(biz, 4, 12), System.currentTimeMillis() - GRACE.toMillis() - 1_000);
    createItem(3);
    List<Integer> lettersWhenNumbered = new java.util.ArrayList<>();
    ParkedRecords.Numbering checking =
        (applied, partitionOf, now) -> {
          lettersWhenNumbered.add(producer.history().size());
          return numbering.number(applied, partitionOf, now);
        };

    ParkedRecords.Refolded refolded =
        DATABASE.tx().execute(s -> parked.refold(List.of(0), checking));

    assertThat(refolded).isNotNull();
    assertThat(refolded.fold().events()).extracting(e -> e.event().seq()).containsExactly(11L);
    assertThat(refolded.deadByReason()).isEqualTo(Map.of("item-not-found", 1));
    assertThat(lettersWhenNumbered).containsExactly(1);
    assertThat(views(3)).isEqualTo(1);
    assertThat(store.parkedCount(topic)).isZero();
  }

  /**
   * A parked record whose id was pruned meanwhile (it waited past the dedup window) and counted
   * again by a later copy of the event: its dead letter forgets only its own row, not the copy's.
   */
  @Test
  void aDeadLetter_forgetsOnlyTheIdItRecorded_notTheSameIdCountedSince() {
    ParkedRecords parked = parked(GRACE);
    long parkedAt = System.currentTimeMillis() - GRACE.toMillis() - 1_000;
    fold(parked, view(biz, 5, 21), parkedAt);
    DATABASE
        .jdbc()
        .update(
            "UPDATE hr_event_id SET seen_at = ? WHERE biz = ? AND event_id = ?",
            parkedAt + 500,
            biz,
            idOf(21));

    ParkedRecords.Refolded refolded = refold(parked);

    assertThat(refolded).isNotNull();
    assertThat(refolded.deadByReason()).isEqualTo(Map.of("item-not-found", 1));
    assertThat(idKept(biz, 21)).isTrue();
  }

  @Test
  void withoutAGrace_nothingIsParked_andAnUnknownBizIsSaidSo() {
    ParkedRecords parked = parked(Duration.ZERO);
    String unknown = "nobiz-" + UUID.randomUUID().toString().substring(0, 8);

    List<DeadLetters.Letter> dead = fold(parked, view(unknown, 1, 3), 1L);

    assertThat(dead)
        .extracting(DeadLetters.Letter::reason)
        .containsExactly(EventRecords.Reason.UNKNOWN_BIZ);
    assertThat(store.parkedCount(topic)).isZero();
    assertThat(idKept(unknown, 3)).isFalse();
  }

  @Test
  void passesOverTheParkedRecords_areDueAtMostOnceASecond_andNeverWithoutAGrace() {
    ParkedRecords parked = parked(GRACE);

    assertThat(parked.due()).isTrue();
    tickerNanos.addAndGet(Duration.ofMillis(999).toNanos());
    assertThat(parked.due()).isFalse();
    tickerNanos.addAndGet(Duration.ofMillis(1).toNanos());
    assertThat(parked.due()).isTrue();
    assertThat(parked(Duration.ZERO).due()).isFalse();
  }

  /** Applies the record's event as a fold does, parking it when its item is not live. */
  private List<DeadLetters.Letter> fold(
      ParkedRecords parked, ConsumerRecord<String, String> record, long now) {
    EventRecords.Parsed parsed = new EventRecords(JsonMapper.builder().build()).parse(record);
    LoggedEvent event = parsed.event();
    return DATABASE
        .tx()
        .execute(
            s -> {
              // As the folder does: ids recorded first, so that a repeat is not folded.
              eventIds.record(List.of(event), LoggedEvent::biz, e -> parsed.id(), now);
              return parked.park(
                  applier.apply(List.of(event)).notLive(), e -> record, e -> parsed.id(), now);
            });
  }

  private ParkedRecords.Refolded refold(ParkedRecords parked) {
    return DATABASE.tx().execute(s -> parked.refold(List.of(0), numbering));
  }

  private ConsumerRecord<String, String> view(String biz, long itemId, long offset) {
    long now = System.currentTimeMillis();
    String value =
        "{\"id\":\"%s\",\"biz\":\"%s\",\"itemId\":%d,\"type\":\"view\",\"at\":\"%s\"}"
            .formatted(idOf(offset), biz, itemId, Instant.ofEpochMilli(now));
    return new ConsumerRecord<>(
        topic,
        0,
        offset,
        now,
        TimestampType.CREATE_TIME,
        -1,
        -1,
        biz + ":" + itemId,
        value,
        new RecordHeaders(),
        Optional.empty());
  }

  /** The event id of the record at {@code offset}. */
  private String idOf(long offset) {
    return topic.substring(topic.length() - 12) + "-" + offset;
  }

  /** Whether the id of the record at {@code offset} is on record, as one counted. */
  private boolean idKept(String biz, long offset) {
    return DATABASE
            .jdbc()
            .queryForObject(
                "SELECT COUNT(*) FROM hr_event_id WHERE biz = ? AND event_id = ?",
                Long.class,
                biz,
                idOf(offset))
        > 0;
  }

  private static String header(ProducerRecord<String, String> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  private void createItem(long id) {
    Instant created = Instant.now();
    DATABASE
        .tx()
        .executeWithoutResult(
            s -> {
              new ItemStore(DATABASE.jdbc(), DATABASE.dialect())
                  .insert(
                      biz,
                      id,
                      1,
                      "item " + id,
                      List.of(),
                      Collections.emptySortedMap(),
                      created,
                      created);
              counters.insertZero(
                  biz,
                  id,
                  created,
                  new ItemCards.Labels(1, List.of(), Collections.emptySortedMap(), 1),
                  created);
            });
  }

  private long views(long id) {
    return DATABASE
        .jdbc()
        .queryForObject(
            "SELECT view_cnt FROM hr_item_counter WHERE biz = ? AND item_id = ?",
            Long.class,
            biz,
            id);
  }
}
