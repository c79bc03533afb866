package io.hotrank.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.BoardReads;
import io.hotrank.support.H2ServerProcess;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.KafkaProcess;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import io.hotrank.support.TestEngines;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * The Kafka source with hotrank as its own processes on a real KRaft broker (a child JVM on
 * loopback), one Redis and one H2 server shared by the class: two instances fold disjoint
 * partitions; {@code kill -9} of one while events keep coming moves its partitions to the other and
 * loses or doubles nothing, and records produced again after it (ids of their own) fold once; a
 * broker killed and restarted under a stream of batches counts every batch answered 202 exactly
 * once and every batch answered 503 whole or not at all; Redis restarted empty under a stream has
 * its window board replayed from the topic and its leaderboard rebuilt. Afterwards the item
 * counters, a leaderboard and a window board equal what was accepted.
 *
 * <p>Each test has a biz, a topic, a consumer group, a database on the H2 server and a Redis key
 * prefix of its own, so that no fold of one test is replayed into another's boards. The instances
 * run with the settings users get (consumer session timeout, transaction and send timeouts, lease
 * TTLs): a killed instance's partitions move once the broker's group coordinator has let its
 * session lapse (hotrank's 10 s default for the folders' consumers; Kafka's own is 45 s).
 */
@Tag("process")
class KafkaSourceProcessTest {

  /** The default of {@code hotrank.ingest.kafka.partitions}, with which the service creates it. */
  private static final int PARTITIONS = 12;

  /** Items per partition, so that every partition has events to fold. */
  private static final int ITEMS_PER_PARTITION = 2;

  /** How long a stream may run at most, whatever a test waits for. */
  private static final Duration STREAM_BOUND = Duration.ofMinutes(4);

  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  private static KafkaProcess kafka;
  private static RedisProcess redis;
  private static H2ServerProcess db;

  @BeforeAll
  static void startEngines() throws Exception {
    TestEngines.exercised("H2");
    kafka = processes.kafka();
    redis = processes.redis();
    db = processes.h2Server();
  }

  // --- one test's world ---

  /**
   * A test's biz, with the topic, group, database and key prefix named after it, its items, and
   * what the accepted events promise: per item, likes and views.
   */
  private static final class World {
    final String biz;
    final List<Long> items = new ArrayList<>();
    private final Map<Long, long[]> counts = new HashMap<>();

    World(String biz) {
      this.biz = biz;
    }

    String topic() {
      return biz + ".events";
    }

    String database() {
      return db.url("kafka_" + biz);
    }

    String clientId(String instance) {
      return "hotrank-fold-" + instance;
    }

    /** The arguments of an instance named {@code instance}, which is also its instance id. */
    List<String> args(String instance, int boardSize) {
      return List.of(
          "--spring.data.redis.url=" + redis.url(),
          "--spring.datasource.url=" + database(),
          "--spring.datasource.username=sa",
          "--spring.datasource.password=",
          "--hotrank.instance-id=" + instance,
          "--hotrank.redis.key-prefix=" + biz + ":",
          "--hotrank.ingest.source=kafka",
          "--spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
          "--hotrank.ingest.kafka.topic=" + topic(),
          "--hotrank.ingest.kafka.group=" + biz + "-fold",
          "--hotrank.boards[0].name=" + biz + "-liked",
          "--hotrank.boards[0].biz=" + biz,
          "--hotrank.boards[0].type=leaderboard",
          "--hotrank.boards[0].counter=like",
          "--hotrank.boards[0].shards=3",
          "--hotrank.boards[0].size=" + boardSize,
          "--hotrank.boards[1].name=" + biz + "-hour",
          "--hotrank.boards[1].biz=" + biz,
          "--hotrank.boards[1].type=window",
          "--hotrank.boards[1].window=1h",
          "--hotrank.boards[1].weights.like=1",
          "--hotrank.boards[1].weights.view=1",
          "--hotrank.boards[1].size=" + boardSize);
    }

    /**
     * Picks the first item ids whose keys fill every partition with {@link #ITEMS_PER_PARTITION},
     * by the producer's own key hashing, and creates them.
     */
    void createItemsOnEveryPartition(HttpJson http) {
      int[] perPartition = new int[PARTITIONS];
      for (long id = 1; items.size() < PARTITIONS * ITEMS_PER_PARTITION && id < 10_000; id++) {
        int p = partitionOf(id);
        if (perPartition[p] < ITEMS_PER_PARTITION) {
          perPartition[p]++;
          items.add(id);
        }
      }
      assertThat(items).hasSize(PARTITIONS * ITEMS_PER_PARTITION);
      items.forEach(id -> createItem(http, id));
    }

    int partitionOf(long id) {
      byte[] key = (biz + ":" + id).getBytes(StandardCharsets.UTF_8);
      return Utils.toPositive(Utils.murmur2(key)) % PARTITIONS;
    }

    void createItem(HttpJson http, long id) {
      Answer created =
          http.post(
              "/api/v1/items",
              HttpJson.json(Map.of("biz", biz, "id", id, "authorId", 1, "title", "item " + id)));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    /** {@code size} events on random items of this world. */
    List<Map<String, Object>> batch(Random random, int size) {
      List<Map<String, Object>> events = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        events.add(event(items.get(random.nextInt(items.size())), random));
      }
      return events;
    }

    Map<String, Object> event(long id, Random random) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("biz", biz);
      e.put("itemId", id);
      e.put("type", random.nextInt(3) == 0 ? "like" : "view");
      return e;
    }

    synchronized void count(List<Map<String, Object>> events) {
      tally(counts, events);
    }

    synchronized Map<Long, long[]> counts() {
      Map<Long, long[]> copy = new TreeMap<>();
      counts.forEach((id, c) -> copy.put(id, c.clone()));
      return copy;
    }
  }

  /** Adds the events' likes and views to {@code counts}, per item. */
  private static Map<Long, long[]> tally(
      Map<Long, long[]> counts, List<Map<String, Object>> events) {
    for (Map<String, Object> e : events) {
      long[] c = counts.computeIfAbsent(((Number) e.get("itemId")).longValue(), id -> new long[2]);
      c[e.get("type").equals("like") ? 0 : 1]++;
    }
    return counts;
  }

  /** Posts a batch and returns the answer's status; a batch answered 202 is counted. */
  private static int post(HttpJson http, World world, List<Map<String, Object>> events) {
    Answer answer = http.post("/api/v1/events", HttpJson.json(Map.of("events", events)));
    if (answer.status() == 202) {
      world.count(events);
    }
    return answer.status();
  }

  // --- background streams ---

  /**
   * Loops that run until stopped (or {@link #STREAM_BOUND}), each on its own thread; what one
   * throws is kept and fails the test when the stream is stopped.
   */
  private static final class Traffic {
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final long deadline = System.nanoTime() + STREAM_BOUND.toNanos();

    /** Runs {@code step} again and again on a new thread. */
    Traffic loop(String name, Step step) {
      threads.add(
          Thread.ofPlatform()
              .name(name)
              .start(
                  () -> {
                    try {
                      while (running.get() && System.nanoTime() < deadline) {
                        step.run();
                      }
                    } catch (Throwable t) {
                      failures.add(t);
                    }
                  }));
      return this;
    }

    /** Stops every loop after its current step and throws what one of them threw. */
    void stop() throws InterruptedException {
      running.set(false);
      for (Thread t : threads) {
        t.join(Duration.ofSeconds(60));
        assertThat(t.isAlive()).as("%s still running", t.getName()).isFalse();
      }
      throwIfFailed("before it was stopped");
    }

    boolean failed() {
      return !failures.isEmpty();
    }

    /** Throws what a loop threw, if one did. */
    void throwIfFailed(String when) {
      if (!failures.isEmpty()) {
        AssertionError error = new AssertionError("a stream failed " + when, failures.peek());
        failures.stream().skip(1).forEach(error::addSuppressed);
        throw error;
      }
    }
  }

  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  /** Waits until {@code counter} has grown by {@code more}, failing early when the stream did. */
  private static void awaitMore(Traffic traffic, AtomicInteger counter, int more, String what) {
    int from = counter.get();
    await(more + " more " + what)
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> traffic.failed() || counter.get() >= from + more);
    traffic.throwIfFailed("waiting for " + what);
  }

  private static void pause(long millis) throws InterruptedException {
    // Paces a stream so that a folder that is away for the consumer session timeout (10 s) leaves
    // a backlog the barrier's 30 s can fold; not a wait for anything.
    Thread.sleep(millis);
  }

  /** A platform's own producer, as the record format documents it: idempotent, acks=all. */
  private static KafkaProducer<String, String> producer() {
    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    return new KafkaProducer<>(config);
  }

  // --- what the service shows ---

  /** {@code GET /api/v1/admin/ingest}. */
  private static JsonNode report(HttpJson http) {
    Answer answer = http.get("/api/v1/admin/ingest", http.adminHeader());
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer.json();
  }

  /** Each partition's owner in the report; a partition not assigned now is absent. */
  private static Map<Integer, String> owners(HttpJson http) {
    Map<Integer, String> owners = new TreeMap<>();
    for (JsonNode p : report(http).get("partitions")) {
      JsonNode owner = p.get("owner");
      if (owner != null && !owner.isNull()) {
        owners.put(p.get("partition").asInt(), owner.asString());
      }
    }
    return owners;
  }

  /** Waits until every partition is assigned, to exactly these members (by client id). */
  private static Map<Integer, String> awaitOwners(HttpJson http, Set<String> members) {
    await("every partition assigned to " + members)
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              Map<Integer, String> owners = owners(http);
              assertThat(owners).hasSize(PARTITIONS);
              assertThat(new TreeSet<>(owners.values())).isEqualTo(new TreeSet<>(members));
            });
    return owners(http);
  }

  private static final Pattern FOLDING =
      Pattern.compile("(Folding|No longer folding) partitions \\[([0-9, ]*)\\] of '([^']+)'");

  /**
   * The partitions an instance's folder holds now, from what it logged as it was given and lost
   * them.
   */
  private static Set<Integer> held(ServiceProcess instance, World world) {
    Set<Integer> held = new TreeSet<>();
    for (String line : instance.lines()) {
      Matcher m = FOLDING.matcher(line);
      if (m.find() && m.group(3).equals(world.topic()) && !m.group(2).isBlank()) {
        for (String p : m.group(2).split(", ")) {
          if (m.group(1).equals("Folding")) {
            held.add(Integer.parseInt(p));
          } else {
            held.remove(Integer.parseInt(p));
          }
        }
      }
    }
    return held;
  }

  /** Who last folded each partition, as stored with the positions in the test's database. */
  private static Map<Integer, String> storedOwners(World world) throws Exception {
    Map<Integer, String> owners = new TreeMap<>();
    try (Connection c = DriverManager.getConnection(world.database(), "sa", "");
        PreparedStatement select =
            c.prepareStatement("SELECT part, owner FROM hr_kafka_position WHERE topic = ?")) {
      select.setString(1, world.topic());
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          owners.put(rs.getInt(1), rs.getString(2));
        }
      }
    }
    return owners;
  }

  /**
   * Waits until the folders have reached the topic's end ({@code POST /api/v1/admin/events/fold}
   * answers 200; it answers 503 after 30 s of waiting, and a backlog left by a failure, or a window
   * replayed from the topic on the folding thread, may take longer).
   */
  private static void foldAll(HttpJson http) {
    // Longer than the barrier's own 30 s, so that its 503 comes before the client gives up.
    HttpJson patient = http.withTimeout(Duration.ofSeconds(60));
    await("the folders at the topic's end")
        .atMost(Duration.ofSeconds(150))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              Answer folded = patient.admin("/api/v1/admin/events/fold");
              assertThat(folded.status()).as(folded.body()).isIn(200, 503);
              return folded.status() == 200;
            });
  }

  /** The counters, the leaderboard and the window board, once folded, equal {@code expected}. */
  private static void assertMatches(HttpJson http, World world, Map<Long, long[]> expected) {
    foldAll(http);
    // An instance shows counters another instance folded at most counts-fresh (1 s) late.
    await("the counters of " + world.biz)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(250))
        .untilAsserted(
            () -> {
              for (var e : expected.entrySet()) {
                assertThat(counts(http, world, e.getKey()))
                    .as("item %d likes and views", e.getKey())
                    .containsExactly(e.getValue());
              }
            });
    await("the boards of " + world.biz)
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .untilAsserted(
            () -> {
              Map<Long, Double> liked = scores(http, world.biz + "-liked", expected.size());
              Map<Long, Double> hour = scores(http, world.biz + "-hour", expected.size());
              expected.forEach(
                  (id, c) -> {
                    assertThat(liked.getOrDefault(id, 0.0)).as("likes of %d", id).isEqualTo(c[0]);
                    assertThat(hour.getOrDefault(id, 0.0))
                        .as("window score of %d", id)
                        .isEqualTo(c[0] + c[1]);
                  });
            });
  }

  /** An item's likes and views, as {@code GET /api/v1/items/{biz}/{id}} shows them. */
  private static long[] counts(HttpJson http, World world, long id) {
    Answer answer = http.get("/api/v1/items/" + world.biz + "/" + id);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    JsonNode counts = answer.json().get("counts");
    return new long[] {counts.get("like").asLong(), counts.get("view").asLong()};
  }

  private static Map<Long, Double> scores(HttpJson http, String board, int size) {
    Answer recomputed = http.admin("/api/v1/admin/boards/" + board + "/recompute");
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
    return BoardReads.scores(http, board, size);
  }

  private static Map<String, ServiceProcess> startInstances(World world, String... names)
      throws Exception {
    List<ServiceProcesses.Instance> instances = new ArrayList<>();
    for (String name : names) {
      instances.add(ServiceProcesses.instance(name).withArgs(world.args(name, boardSize())));
    }
    return processes.startTogether(instances);
  }

  private static int boardSize() {
    return PARTITIONS * ITEMS_PER_PARTITION;
  }

  // --- the tests ---

  /**
   * One pair of instances for two stories, one after the other (a pair's start and its group's
   * first rebalance are most of what either story costs): both fold, then one is killed.
   */
  @Test
  void twoInstances_foldDisjointPartitions_thenOneKilledMidStream_losesItsPartitionsAndNothingElse()
      throws Exception {
    World world = new World("ktwo");
    Map<String, ServiceProcess> started = startInstances(world, "ktwo-1", "ktwo-2");
    foldDisjointPartitions(world, started);
    killOneWhileEventsKeepComing(world, started);
  }

  private static void foldDisjointPartitions(World world, Map<String, ServiceProcess> started)
      throws Exception {
    HttpJson one = started.get("ktwo-1").http();
    HttpJson two = started.get("ktwo-2").http();
    Set<String> members = Set.of(world.clientId("ktwo-1"), world.clientId("ktwo-2"));
    Map<Integer, String> owners = awaitOwners(one, members);
    // Either instance reports the whole group's assignment.
    assertThat(owners(two)).isEqualTo(owners);
    world.createItemsOnEveryPartition(one);

    Random random = new Random(1);
    for (int i = 0; i < 40; i++) {
      HttpJson to = i % 2 == 0 ? one : two;
      assertThat(post(to, world, world.batch(random, 50))).isEqualTo(202);
    }

    assertMatches(one, world, world.counts());
    assertMatches(two, world, world.counts());
    // Each partition was folded by the member it is assigned to, and by no other: its position
    // was last moved by its owner, and the assignment did not change while the events came.
    assertThat(storedOwners(world)).isEqualTo(owners);
    assertThat(owners(one)).isEqualTo(owners);
    for (String member : members) {
      assertThat(owners.values()).as("partitions of %s", member).contains(member);
    }
    // And as the folders themselves say: disjoint, together every partition, each the group's.
    Set<Integer> heldByOne = held(started.get("ktwo-1"), world);
    Set<Integer> heldByTwo = held(started.get("ktwo-2"), world);
    assertThat(heldByOne).doesNotContainAnyElementsOf(heldByTwo);
    owners.forEach(
        (partition, owner) ->
            assertThat(owner.equals(world.clientId("ktwo-1")) ? heldByOne : heldByTwo)
                .as("the folder of partition %d", partition)
                .contains(partition));
  }

  /**
   * With events still coming (HTTP to both, and records produced straight to the topic), one
   * instance is killed: its partitions move to the other once its consumer session lapses, and
   * every accepted event is counted once.
   */
  private static void killOneWhileEventsKeepComing(World world, Map<String, ServiceProcess> started)
      throws Exception {
    ServiceProcess victim = started.get("ktwo-1");
    HttpJson survivor = started.get("ktwo-2").http();
    String survivorId = world.clientId("ktwo-2");

    AtomicInteger acceptedByVictim = new AtomicInteger();
    AtomicInteger accepted = new AtomicInteger();
    AtomicInteger produced = new AtomicInteger();
    Random victimRandom = new Random(2);
    Traffic toVictim =
        new Traffic()
            .loop(
                "http-victim",
                () -> {
                  assertThat(post(victim.http(), world, world.batch(victimRandom, 20)))
                      .isEqualTo(202);
                  acceptedByVictim.incrementAndGet();
                  pause(100);
                });
    Random survivorRandom = new Random(3);
    Random producerRandom = new Random(4);
    // Every record the producer sent, which it sends again after the kill and the rebalance, as a
    // producer application restarted mid-stream would: their ids make them fold once.
    Queue<ProducerRecord<String, String>> sent = new ConcurrentLinkedQueue<>();
    try (KafkaProducer<String, String> producer = producer()) {
      Traffic rest =
          new Traffic()
              .loop(
                  "http-survivor",
                  () -> {
                    assertThat(post(survivor, world, world.batch(survivorRandom, 20)))
                        .isEqualTo(202);
                    accepted.incrementAndGet();
                    pause(100);
                  })
              .loop(
                  "producer",
                  () -> {
                    Map<String, Object> e =
                        world.event(
                            world.items.get(producerRandom.nextInt(world.items.size())),
                            producerRandom);
                    e.put("id", "p-" + produced.get());
                    ProducerRecord<String, String> r =
                        new ProducerRecord<>(
                            world.topic(), world.biz + ":" + e.get("itemId"), HttpJson.json(e));
                    producer.send(r).get(30, TimeUnit.SECONDS);
                    sent.add(r);
                    world.count(List.of(e));
                    produced.incrementAndGet();
                    pause(20);
                  });
      awaitMore(toVictim, acceptedByVictim, 10, "batches accepted by the instance to be killed");
      awaitMore(rest, accepted, 10, "batches accepted by the survivor");
      // The victim's HTTP client stops first: a batch in flight when it dies has no answer, and
      // so no claim. Its folder is folding the survivor's and the producer's events meanwhile.
      toVictim.stop();
      awaitMore(rest, produced, 20, "records produced");
      victim.signal("KILL");

      awaitMore(rest, accepted, 10, "batches accepted after the kill");
      awaitOwners(survivor, Set.of(survivorId));
      awaitMore(rest, accepted, 10, "batches accepted after the partitions moved");
      rest.stop();
    }
    try (KafkaProducer<String, String> restarted = producer()) {
      for (ProducerRecord<String, String> r : sent) {
        restarted.send(r);
      }
      restarted.flush();
    }

    assertMatches(survivor, world, world.counts());
    Map<Integer, String> stored = storedOwners(world);
    assertThat(stored).hasSize(PARTITIONS);
    assertThat(new TreeSet<>(stored.values())).containsExactly(survivorId);
    assertThat(held(started.get("ktwo-2"), world)).hasSize(PARTITIONS);
  }

  @Test
  void aBrokerKilledAndRestartedMidStream_countsEveryAcceptedBatchOnce() throws Exception {
    World world = new World("kbroker");
    int batchSize = 20;
    int maxBatches = 600;
    // Every batch has an item of its own: its counters then say whether the batch was applied
    // whole (its size) or not at all (0), and nothing in between.
    Map<Long, List<Map<String, Object>>> batches = new ConcurrentHashMap<>();
    Map<Long, Integer> answers = new ConcurrentHashMap<>();
    ServiceProcess service =
        processes.start(
            ServiceProcesses.instance("kbroker-1").withArgs(world.args("kbroker-1", maxBatches)));
    HttpJson http = service.http();
    awaitOwners(http, Set.of(world.clientId("kbroker-1")));

    AtomicLong nextItem = new AtomicLong(1);
    AtomicInteger accepted = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    Traffic traffic = new Traffic();
    for (int t = 0; t < 2; t++) {
      Random random = new Random(10 + t);
      traffic.loop(
          "http-" + t,
          () -> {
            long id = nextItem.getAndIncrement();
            if (id > maxBatches) {
              pause(100);
              return;
            }
            world.createItem(http, id);
            List<Map<String, Object>> events = new ArrayList<>();
            for (int i = 0; i < batchSize; i++) {
              events.add(world.event(id, random));
            }
            batches.put(id, events);
            Answer answer = http.post("/api/v1/events", HttpJson.json(Map.of("events", events)));
            assertThat(answer.status()).as(answer.body()).isIn(202, 503);
            if (answer.status() == 503) {
              // The broker away is an overload the client retries, answered within the send
              // timeout: not a storage failure after the appender's 30 s safety net.
              assertThat(answer.json().get("type").asString())
                  .as(answer.body())
                  .endsWith("/ingest-overloaded");
              assertThat(answer.header("Retry-After")).isNotBlank();
            }
            answers.put(id, answer.status());
            (answer.status() == 202 ? accepted : refused).incrementAndGet();
            pause(50);
          });
    }
    try {
      awaitMore(traffic, accepted, 20, "batches accepted before the broker is killed");
      kafka.kill();
      awaitMore(traffic, refused, 2, "batches refused while the broker is away");
      kafka.startAgain();
      awaitMore(traffic, accepted, 20, "batches accepted after the broker is back");
      traffic.stop();
    } finally {
      if (!kafka.isRunning()) {
        kafka.startAgain(); // for the other tests of the class
      }
    }
    assertThat(nextItem.get()).as("batches posted").isLessThanOrEqualTo(maxBatches);

    foldAll(http);
    Map<Long, long[]> expected = new TreeMap<>();
    AtomicInteger refusedButApplied = new AtomicInteger();
    await("every batch counted whole or not at all")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(250))
        .untilAsserted(
            () -> {
              expected.clear();
              refusedButApplied.set(0);
              for (var answer : answers.entrySet()) {
                long id = answer.getKey();
                long[] whole = tally(new HashMap<>(), batches.get(id)).get(id);
                long[] found = counts(http, world, id);
                if (answer.getValue() == 202) {
                  assertThat(found)
                      .as("item %d, its batch answered 202", id)
                      .containsExactly(whole);
                } else if (found[0] + found[1] == 0) {
                  continue;
                } else {
                  assertThat(found)
                      .as("item %d, its batch answered 503", id)
                      .containsExactly(whole);
                  refusedButApplied.incrementAndGet();
                }
                expected.put(id, found);
              }
            });
    System.out.printf(
        "kbroker: %d batches answered 202, %d answered 503, of which %d were applied%n",
        accepted.get(), refused.get(), refusedButApplied.get());
    assertMatches(http, world, expected);
  }

  @Test
  void redisRestartedEmptyUnderAStream_replaysTheWindowFromTheTopic_andRebuildsTheLeaderboard()
      throws Exception {
    World world = new World("kredis");
    ServiceProcess service =
        processes.start(
            ServiceProcesses.instance("kredis-1").withArgs(world.args("kredis-1", boardSize())));
    HttpJson http = service.http();
    awaitOwners(http, Set.of(world.clientId("kredis-1")));
    world.createItemsOnEveryPartition(http);

    AtomicInteger accepted = new AtomicInteger();
    Random random = new Random(5);
    Traffic traffic =
        new Traffic()
            .loop(
                "http",
                () -> {
                  int status = post(http, world, world.batch(random, 50));
                  assertThat(status).isEqualTo(202);
                  accepted.incrementAndGet();
                  pause(50);
                });
    awaitMore(traffic, accepted, 10, "batches accepted before Redis stops");
    redis.stop();
    awaitMore(traffic, accepted, 10, "batches accepted while Redis is away");
    int linesBefore = service.lines().size();
    redis.startAgain();
    awaitMore(traffic, accepted, 10, "batches accepted after Redis is back");
    traffic.stop();

    assertMatches(http, world, world.counts());
    List<String> after = service.lines().subList(linesBefore, service.lines().size());
    assertThat(after)
        .as("what the instance did after Redis came back")
        .anyMatch(l -> l.contains("Window board 'kredis-hour' has no data in Redis: replaying"))
        .anyMatch(l -> l.contains("Leaderboard 'kredis-liked' rebuilt"));
  }
}
