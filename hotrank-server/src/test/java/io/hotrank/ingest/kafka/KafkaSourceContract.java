package io.hotrank.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.BoardReads;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.KafkaTestBroker;
import io.hotrank.support.RequestFingerprint;
import io.hotrank.support.TrustModel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The Kafka source on one database engine, against a real in-process KRaft broker: batches posted
 * over HTTP and records written by a platform's own producer are folded into the counters, a window
 * board and a leaderboard exactly as a model says; a transaction the producer aborts leaves
 * nothing; records that cannot be folded go to the dead-letter topic with their reason and origin,
 * and are counted; the report shows every partition at rest with no lag; and a window board whose
 * Redis data is lost is replayed from the topic.
 */
@TestPropertySource(
    properties = {
      "hotrank.ingest.source=kafka",
      "hotrank.ingest.kafka.partitions=3",
      // What is under test: a record waits this long for its item, then is a dead letter.
      "hotrank.ingest.kafka.item-grace=3s",
      "hotrank.boards[0].name=kfk-hour",
      "hotrank.boards[0].biz=kfk",
      "hotrank.boards[0].type=window",
      "hotrank.boards[0].bucket=1m",
      "hotrank.boards[0].window=1h",
      "hotrank.boards[0].weights.like=1",
      "hotrank.boards[0].weights.view=1",
      "hotrank.boards[0].size=10",
      "hotrank.boards[1].name=kfk-liked",
      "hotrank.boards[1].biz=kfk",
      "hotrank.boards[1].type=leaderboard",
      "hotrank.boards[1].counter=like",
      "hotrank.boards[1].shards=2",
      "hotrank.boards[1].size=10",
      "hotrank.boards[2].name=kfk-trusted",
      "hotrank.boards[2].biz=kfk",
      "hotrank.boards[2].window=1d",
      "hotrank.boards[2].weights.like=1",
      "hotrank.boards[2].weights.view=0.5",
      "hotrank.boards[2].weights.comment=2",
      "hotrank.boards[2].weights.share=1",
      "hotrank.boards[2].weights.collect=1",
      "hotrank.boards[2].weights.dislike=-1",
      "hotrank.boards[2].size=10",
      "hotrank.boards[2].refresh=0 0 0 1 1 *",
      "hotrank.boards[3].name=kfk-window",
      "hotrank.boards[3].biz=kfk",
      "hotrank.boards[3].type=window",
      "hotrank.boards[3].bucket=1m",
      "hotrank.boards[3].window=1h",
      "hotrank.boards[3].weights.like=1",
      "hotrank.boards[3].weights.view=0.5",
      "hotrank.boards[3].weights.comment=2",
      "hotrank.boards[3].weights.share=1",
      "hotrank.boards[3].weights.collect=1",
      "hotrank.boards[3].weights.dislike=-1",
      "hotrank.boards[3].size=10"
    })
public abstract class KafkaSourceContract extends ApiTestSupport {

  private static final int ITEMS = 6;

  /**
   * Topics and a group of each context's own (one per engine): the broker is shared by every Kafka
   * test class, and a folder of another engine's context in the same group would fold this one's
   * records into its own database. Called once per context.
   */
  @DynamicPropertySource
  static void kafka(DynamicPropertyRegistry registry) {
    String run = UUID.randomUUID().toString().substring(0, 8);
    registry.add("spring.kafka.bootstrap-servers", KafkaTestBroker::bootstrapServers);
    registry.add("hotrank.ingest.kafka.topic", () -> "hr-events-" + run);
    registry.add("hotrank.ingest.kafka.group", () -> "hr-fold-" + run);
  }

  private String topic() {
    return environment.getRequiredProperty("hotrank.ingest.kafka.topic");
  }

  /** What the accepted events promise: per item, likes and views. */
  private final Map<Long, long[]> model = new HashMap<>();

  /**
   * The first id of this test's items: the boards in Redis keep what earlier tests of the context
   * folded, so each test has ids of its own.
   */
  private static final java.util.concurrent.atomic.AtomicLong nextBase =
      new java.util.concurrent.atomic.AtomicLong();

  private long base;

  /** Items base+1..base+ITEMS. */
  private void items() {
    // Redis expires a window's buckets on its own clock: the events must be of today.
    clock.set(java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    model.clear();
    // Each test starts from emptied item tables while Redis keeps the leaderboard's shards: their
    // members, earlier tests' items with more likes, would trim this test's items out of a shard
    // (a shard keeps its top twice the board's size). Rebuilt from the emptied counters, it holds
    // only what this test folds.
    Answer rebuilt = http.post("/api/v1/admin/boards/kfk-liked/rebuild", "", http.adminHeader());
    assertThat(rebuilt.status()).as(rebuilt.body()).isEqualTo(200);
    base = nextBase.getAndAdd(100);
    for (long i = 1; i <= ITEMS; i++) {
      createItem("kfk", base + i, "item " + i, 7, clock.instant().minusSeconds(60));
    }
  }

  /** An event of item base+i. */
  private String event(long i, String type) {
    return "{\"biz\":\"kfk\",\"itemId\":" + (base + i) + ",\"type\":\"" + type + "\"}";
  }

  /** Counts an event of item base+i. */
  private void count(long i, String type) {
    model.computeIfAbsent(base + i, id -> new long[2])[type.equals("like") ? 0 : 1]++;
  }

  private KafkaProducer<String, String> producer(String transactionalId) {
    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestBroker.bootstrapServers());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    if (transactionalId != null) {
      config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    }
    return new KafkaProducer<>(config);
  }

  /**
   * A record stamped with the test's clock, as the service stamps the events it accepts over HTTP:
   * stamped by the producer's own clock, a record sent after a minute turned would land in a window
   * bucket ahead of the one the board is read up to.
   */
  private ProducerRecord<String, String> record(String key, String value) {
    return new ProducerRecord<>(topic(), null, clock.millis(), key, value);
  }

  private void assertCountsAndBoards() {
    fold();
    for (long id = base + 1; id <= base + ITEMS; id++) {
      long[] expected = model.getOrDefault(id, new long[2]);
      JsonNode counts = http.get("/api/v1/items/kfk/" + id).json().get("counts");
      assertThat(new long[] {counts.get("like").asLong(), counts.get("view").asLong()})
          .as("item %d likes and views", id)
          .containsExactly(expected);
    }
    Map<Long, Double> hour = scores("kfk-hour");
    Map<Long, Double> liked = scores("kfk-liked");
    model.forEach(
        (id, c) -> {
          assertThat(hour.getOrDefault(id, 0.0))
              .as("window score of %d", id)
              .isEqualTo(c[0] + c[1]);
          assertThat(liked.getOrDefault(id, 0.0)).as("likes of %d", id).isEqualTo(c[0]);
        });
  }

  private Map<Long, Double> scores(String board) {
    assertThat(http.admin("/api/v1/admin/boards/" + board + "/recompute").status()).isEqualTo(200);
    return BoardReads.scores(http, board, ITEMS);
  }

  @Test
  void batchesFromHttpAndFromAProducer_foldExactlyAsTheModelSays() {
    items();
    Random random = new Random(11);
    try (KafkaProducer<String, String> producer = producer(null)) {
      for (int round = 0; round < 10; round++) {
        List<String> batch = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          long id = 1 + random.nextInt(ITEMS);
          String type = random.nextInt(3) == 0 ? "like" : "view";
          batch.add(event(id, type));
          count(id, type);
        }
        Answer accepted =
            http.post("/api/v1/events", "{\"events\":[" + String.join(",", batch) + "]}");
        assertThat(accepted.status()).as(accepted.body()).isEqualTo(202);
        for (int i = 0; i < 50; i++) {
          long id = 1 + random.nextInt(ITEMS);
          String type = random.nextInt(3) == 0 ? "like" : "view";
          producer.send(record("kfk:" + (base + id), event(id, type)));
          count(id, type);
        }
        producer.flush();
      }
    }
    assertCountsAndBoards();
  }

  /**
   * Events of actors of every kind with repeated likes and views, and a flag between two phases,
   * posted over HTTP and folded from the topic: the raw and trusted counters and a board ranked by
   * the trusted ones are what the model computes ({@link TrustModel}).
   */
  @Test
  void trustedCountersAndBoards_followTheModel_withAFlagMidStream() {
    items();
    Map<Long, java.time.Instant> createdAt = new HashMap<>();
    List<Long> ids = new ArrayList<>();
    for (long i = 1; i <= ITEMS; i++) {
      ids.add(base + i);
      createdAt.put(base + i, clock.instant().minusSeconds(60));
    }
    TrustModel model = new TrustModel(http, "kfk", ids, TrustModel.users(jdbc, 5));
    model.sendActors(clock.instant());
    Random random = new Random(7);
    postAll(model.events(random, 300));
    fold();
    model.assertCounters();

    model.flagMidStream();
    model.assertCounters(); // taken back at once, in the flag's transaction
    postAll(model.events(random, 300));
    fold();

    model.assertCounters();
    assertThat(model.trustMatters()).as("the events make trust matter").isTrue();
    model.assertHackerNewsBoard("kfk-trusted", true, createdAt, clock.instant());
    model.assertWindowBoard("kfk-window", true);
    // Replayed from the topic, with the weights of when each fold ran (the flagged actors' views
    // of the first phase count).
    Answer rebuilt = http.admin("/api/v1/admin/boards/kfk-window/rebuild");
    assertThat(rebuilt.status()).as(rebuilt.body()).isEqualTo(200);
    model.assertWindowBoard("kfk-window", true);
  }

  /**
   * A flag racing a stream of likes and collects of its actor folded from the topic: whichever
   * folds came before or after the flag, none of the actor's actions weighs anything at the end,
   * and every item's trusted likes and collects are the weights of the actions that stand.
   */
  @Test
  void aFlagRacingTheFolds_takesBackEverything_exactly() throws Exception {
    items();
    long users = TrustModel.users(jdbc, 6);
    List<Long> flagged =
        TrustModel.flagDuringAStream(
            http,
            "kfk",
            base,
            ITEMS,
            users,
            events -> {
              postAll(List.of(events));
              fold();
            });
    fold();

    for (long user : flagged) {
      TrustModel.assertFlagTookEverythingBack(jdbc, "kfk", user);
    }
  }

  private void postAll(List<String> events) {
    Answer accepted =
        http.post("/api/v1/events", "{\"events\":[" + String.join(",", events) + "]}");
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(202);
  }

  /** This run's event ids: a database kept from an earlier run holds that run's. */
  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

  /** An event of item base+i with an id of this run. */
  private String event(String id, long i, String type) {
    id = RUN + "-" + id;
    return "{\"id\":\"" + id + "\"," + event(i, type).substring(1);
  }

  @Test
  void eventsWithIds_producedTwice_andBatchesRetriedWithTheirKeys_foldOnce() {
    items();
    Random random = new Random(5);
    List<ProducerRecord<String, String>> sent = new ArrayList<>();
    try (KafkaProducer<String, String> producer = producer(null)) {
      for (int round = 0; round < 5; round++) {
        List<String> batch = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          long id = 1 + random.nextInt(ITEMS);
          String type = random.nextInt(3) == 0 ? "like" : "view";
          batch.add(event("h" + base + "-" + round + "-" + i, id, type));
          count(id, type);
          ProducerRecord<String, String> r =
              record("kfk:" + (base + id), event("p" + base + "-" + round + "-" + i, id, type));
          producer.send(r);
          sent.add(r);
          count(id, type);
        }
        String body = "{\"events\":[" + String.join(",", batch) + "]}";
        String key = "kafka-" + RUN + "-" + base + "-" + round;
        Answer first = http.post("/api/v1/events", body, "Idempotency-Key", key);
        Answer retried = http.post("/api/v1/events", body, "Idempotency-Key", key);
        // The same batch again without its key (a client that lost it): its ids fold once.
        Answer resent = http.post("/api/v1/events", body);
        assertThat(first.status()).as(first.body()).isEqualTo(202);
        assertThat(retried.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(retried.raw()).isEqualTo(first.raw());
        assertThat(resent.status()).isEqualTo(202);
      }
      // A producer restarted mid-stream sends what it sent before again.
      sent.forEach(producer::send);
      producer.flush();
    }
    // A keyed batch without ids whose key was lost (taken over after its lease, as when the
    // instance died before recording the answer) runs again: its events carry ids derived from
    // the key, and fold once.
    List<String> plain = List.of(event(1, "like"), event(2, "view"), event(2, "view"));
    count(1, "like");
    count(2, "view");
    count(2, "view");
    String body = "{\"events\":[" + String.join(",", plain) + "]}";
    String key = "kafka-lost-" + RUN + "-" + base;
    assertThat(http.post("/api/v1/events", body, "Idempotency-Key", key).status()).isEqualTo(202);
    assertThat(
            jdbc.update(
                "DELETE FROM hr_idempotency WHERE fingerprint = ?",
                RequestFingerprint.of("POST /api/v1/events", body)))
        .isEqualTo(1);
    Answer ranAgain = http.post("/api/v1/events", body, "Idempotency-Key", key);
    assertThat(ranAgain.status()).isEqualTo(202);
    assertThat(ranAgain.header("Idempotent-Replayed")).isNull();
    assertCountsAndBoards();
  }

  @Test
  void aTransactionTheProducerAborts_leavesNothing() throws Exception {
    items();
    try (KafkaProducer<String, String> producer = producer("test-abort-" + UUID.randomUUID())) {
      producer.initTransactions();
      producer.beginTransaction();
      for (int i = 0; i < 20; i++) {
        producer.send(record("kfk:" + (base + 1), event(1, "like")));
      }
      producer.flush();
      producer.abortTransaction();
      producer.beginTransaction();
      producer.send(record("kfk:" + (base + 2), event(2, "like")));
      producer.commitTransaction();
      count(2, "like");
    }
    assertCountsAndBoards();
  }

  @Test
  void recordsThatCannotBeFolded_goToTheDeadLetterTopic_withReasonAndOrigin() throws Exception {
    items();
    Map<String, Long> before = deadLetterCounts();
    List<String[]> bad =
        List.of(
            new String[] {"unparseable", "{not json"},
            new String[] {
              "unknown-type", "{\"biz\":\"kfk\",\"itemId\":" + (base + 1) + ",\"type\":\"poke\"}"
            },
            new String[] {
              "invalid-item-id", "{\"biz\":\"kfk\",\"itemId\":9007199254740992,\"type\":\"like\"}"
            },
            new String[] {"unknown-biz", "{\"biz\":\"nope\",\"itemId\":1,\"type\":\"like\"}"},
            new String[] {
              "item-not-found", "{\"biz\":\"kfk\",\"itemId\":" + (base + 99) + ",\"type\":\"like\"}"
            });
    try (KafkaProducer<String, String> producer = producer(null)) {
      for (String[] b : bad) {
        producer.send(record("kfk:1", b[1]));
      }
      producer.send(record("kfk:" + (base + 3), event(3, "view")));
      count(3, "view");
    }
    assertCountsAndBoards();

    // The record of an item that does not exist waits out the grace, parked, then is a letter.
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              Map<String, Long> after = deadLetterCounts();
              for (String[] b : bad) {
                assertThat(after.getOrDefault(b[0], 0L) - before.getOrDefault(b[0], 0L))
                    .as("dead letters of reason %s", b[0])
                    .isEqualTo(1);
              }
            });
    assertThat(report().get("parked").asLong()).isZero();
    Map<String, ConsumerRecord<String, String>> letters = deadLetters(bad.size());
    for (String[] b : bad) {
      ConsumerRecord<String, String> letter = letters.get(b[1]);
      assertThat(letter).as("dead letter of %s", b[0]).isNotNull();
      assertThat(header(letter, "hotrank-dlt-reason")).isEqualTo(b[0]);
      assertThat(header(letter, "hotrank-dlt-topic")).isEqualTo(topic());
      assertThat(header(letter, "hotrank-dlt-partition")).matches("[0-9]+");
      assertThat(header(letter, "hotrank-dlt-offset")).matches("[0-9]+");
      assertThat(header(letter, "hotrank-dlt-detail")).isNotBlank();
      assertThat(letter.key()).isEqualTo("kfk:1");
    }
  }

  private Map<String, Long> deadLetterCounts() {
    Map<String, Long> counts = new HashMap<>();
    report()
        .get("deadLetters")
        .properties()
        .forEach(e -> counts.put(e.getKey(), e.getValue().asLong()));
    return counts;
  }

  private JsonNode report() {
    Answer answer = http.get("/api/v1/admin/ingest", http.adminHeader());
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer.json();
  }

  /** Every dead letter of this class's topic, by value, once at least {@code n} are there. */
  private Map<String, ConsumerRecord<String, String>> deadLetters(int n) {
    Map<String, Object> config = new HashMap<>();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestBroker.bootstrapServers());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "dlt-reader-" + UUID.randomUUID());
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    Map<String, ConsumerRecord<String, String>> letters = new LinkedHashMap<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(List.of(topic() + ".dlt"));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (letters.size() < n && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(r -> letters.put(r.value(), r));
      }
    }
    return letters;
  }

  private static String header(ConsumerRecord<String, String> record, String name) {
    var header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  @Test
  void aRecordOfAnItemCreatedAfterIt_waitsForTheItem_andIsFolded() {
    items();
    try (KafkaProducer<String, String> producer = producer(null)) {
      producer.send(record("kfk:" + (base + 7), event(7, "like")));
      producer.send(record("kfk:" + (base + 1), event(1, "view")));
      count(1, "view");
    }
    fold();
    assertThat(report().get("parked").asLong()).isEqualTo(1);
    createItem("kfk", base + 7, "item 7", 7, clock.instant().minusSeconds(60));
    model.computeIfAbsent(base + 7, id -> new long[2])[0]++;
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(
                        http.get("/api/v1/items/kfk/" + (base + 7))
                            .json()
                            .get("counts")
                            .get("like")
                            .asLong())
                    .isEqualTo(1));
    assertThat(report().get("parked").asLong()).isZero();
    assertCountsAndBoards();
  }

  @Test
  void theReport_showsEveryPartitionAtRest_withNoLag() {
    items();
    postAndCount(List.of(event(1, "like"), event(2, "view"), event(3, "like")));
    fold();
    JsonNode report = report();
    assertThat(report.get("source").asString()).isEqualTo("kafka");
    assertThat(report.get("topic").asString()).isEqualTo(topic());
    assertThat(report.get("deadLetterTopic").asString()).isEqualTo(topic() + ".dlt");
    assertThat(report.get("partitions")).hasSize(3);
    Set<String> owners = new java.util.HashSet<>();
    for (JsonNode p : report.get("partitions")) {
      assertThat(p.get("lag").asLong()).as(p.toString()).isZero();
      assertThat(p.get("position").asLong())
          .as(p.toString())
          .isEqualTo(p.get("endOffset").asLong());
      owners.add(p.get("owner").asString());
    }
    assertThat(owners).hasSize(1).allMatch(o -> o.startsWith("hotrank-fold-"));
    assertThat(report.get("lag").asLong()).isZero();
  }

  private void postAndCount(List<String> events) {
    Answer accepted =
        http.post("/api/v1/events", "{\"events\":[" + String.join(",", events) + "]}");
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(202);
    for (String e : events) {
      JsonNode node = tools.jackson.databind.json.JsonMapper.builder().build().readTree(e);
      count(node.get("itemId").asLong() - base, node.get("type").asString());
    }
  }

  @Test
  void aWindowBoardWhoseRedisDataIsLost_isReplayedFromTheTopic() {
    items();
    List<String> events = new ArrayList<>();
    for (long id = 1; id <= ITEMS; id++) {
      for (int i = 0; i < id; i++) {
        events.add(event(id, "view"));
      }
    }
    postAndCount(events);
    // More records of one item than a replay keeps of a partition at once (a fetch's worth).
    try (KafkaProducer<String, String> producer = producer(null)) {
      for (int i = 0; i < 12_000; i++) {
        producer.send(record("kfk:" + (base + 1), event(1, "view")));
        count(1, "view");
      }
    }
    assertCountsAndBoards();
    Set<String> keys = redis.keys(keyPrefix() + "*kfk-hour*");
    assertThat(keys).isNotEmpty();
    keys.forEach(redis::delete);
    assertCountsAndBoards();
  }
}
