package io.hotrank.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.AnswerDroppingProxy;
import io.hotrank.support.BoardReads;
import io.hotrank.support.EventModel;
import io.hotrank.support.H2ServerProcess;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.RawHttp;
import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import io.hotrank.support.TestEngines;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Clients retrying writes whose answers were lost: two instances behind a proxy that drops the
 * answer of every fifth request after the instance ran it, one Redis and one H2 server shared by
 * the class. Each client sends its batches with an {@code Idempotency-Key} and sends a batch again,
 * with the same key, until it gets an answer; the retry usually reaches the other instance. On the
 * event log and on the Kafka source, the counters and a window board then equal a model that counts
 * each batch once.
 */
@Tag("process")
class RetriedWritesProcessTest {

  private static final int ITEMS = 20;
  private static final int CLIENTS = 4;
  private static final int BATCHES_PER_CLIENT = 30;
  private static final int EVENTS_PER_BATCH = 20;
  private static final int MAX_TRIES = 10;

  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  private static H2ServerProcess db;

  @BeforeAll
  static void startEngines() throws Exception {
    TestEngines.exercised("H2");
    db = processes.h2Server();
  }

  private static List<String> args(String biz, String instance) throws Exception {
    return List.of(
        "--spring.data.redis.url=" + processes.redis().url(),
        "--spring.datasource.url=" + db.url("retried_" + biz),
        "--spring.datasource.username=sa",
        "--spring.datasource.password=",
        "--hotrank.instance-id=" + instance,
        "--hotrank.redis.key-prefix=" + biz + ":",
        "--hotrank.bizes=" + biz,
        "--hotrank.boards[0].name=" + biz + "-hour",
        "--hotrank.boards[0].biz=" + biz,
        "--hotrank.boards[0].type=window",
        "--hotrank.boards[0].window=1h",
        "--hotrank.boards[0].weights.like=1",
        "--hotrank.boards[0].weights.view=1",
        "--hotrank.boards[0].size=" + ITEMS);
  }

  @Test
  void onTheEventLog_everyRetriedBatchCountsOnce() throws Exception {
    retriedBatchesCountOnce("rlog", List.of());
  }

  @Test
  void onTheKafkaSource_everyRetriedBatchCountsOnce() throws Exception {
    String biz = "rkafka";
    retriedBatchesCountOnce(
        biz,
        List.of(
            "--hotrank.ingest.source=kafka",
            "--spring.kafka.bootstrap-servers=" + processes.kafka().bootstrapServers(),
            "--hotrank.ingest.kafka.topic=" + biz + ".events",
            "--hotrank.ingest.kafka.group=" + biz + "-fold"));
  }

  private void retriedBatchesCountOnce(String biz, List<String> sourceArgs) throws Exception {
    List<ServiceProcesses.Instance> instances = new ArrayList<>();
    for (String name : List.of(biz + "-1", biz + "-2")) {
      instances.add(ServiceProcesses.instance(name).withArgs(args(biz, name)).withArgs(sourceArgs));
    }
    Map<String, ServiceProcess> started = processes.startTogether(instances);
    ServiceProcess one = started.get(biz + "-1");
    ServiceProcess two = started.get(biz + "-2");
    for (long id = 1; id <= ITEMS; id++) {
      Answer created =
          one.http()
              .post(
                  "/api/v1/items",
                  HttpJson.json(Map.of("biz", biz, "id", id, "authorId", 1, "title", "i" + id)));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    EventModel model = new EventModel();
    AtomicInteger replayed = new AtomicInteger();
    try (AnswerDroppingProxy proxy = new AnswerDroppingProxy(List.of(one.port(), two.port()), 5);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS)) {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        Random random = new Random(c);
        done.add(
            clients.submit(
                () -> {
                  for (int b = 0; b < BATCHES_PER_CLIENT; b++) {
                    List<Map<String, Object>> batch =
                        EventModel.randomBatch(biz, ITEMS, random, EVENTS_PER_BATCH);
                    RawHttp.Answer answer =
                        postUntilAnswered(
                            proxy.port(),
                            HttpJson.json(Map.of("events", batch)),
                            UUID.randomUUID().toString());
                    assertThat(answer.status()).as(answer.text()).isEqualTo(202);
                    if ("true".equals(answer.header("Idempotent-Replayed"))) {
                      replayed.incrementAndGet();
                    }
                    model.add(batch);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      // One request in five lost its answer, and most of their retries were replays.
      assertThat(proxy.dropped()).isGreaterThanOrEqualTo(CLIENTS * BATCHES_PER_CLIENT / 5);
      assertThat(replayed.get()).isGreaterThan(CLIENTS * BATCHES_PER_CLIENT / 10);
    }

    for (ServiceProcess instance : List.of(one, two)) {
      Answer folded = instance.http().admin("/api/v1/admin/events/fold");
      assertThat(folded.status()).as(folded.body()).isEqualTo(200);
      // An instance shows counters another instance folded at most counts-fresh (1 s) late.
      await("the counters on " + instance)
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(() -> model.assertCounters(instance.http(), biz, ITEMS));
    }
    Answer recomputed = one.http().admin("/api/v1/admin/boards/" + biz + "-hour/recompute");
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
    Map<Long, Double> scores = BoardReads.scores(one.http(), biz + "-hour", ITEMS);
    model
        .counts()
        .forEach(
            (id, c) ->
                assertThat(scores.getOrDefault(id, 0.0))
                    .as("window score of %d", id)
                    .isEqualTo((double) (c[0] + c[1])));
  }

  /** Sends the batch with its key until an answer comes back (a dropped one throws). */
  private static RawHttp.Answer postUntilAnswered(int port, String body, String key)
      throws IOException {
    IOException last = null;
    for (int attempt = 1; attempt <= MAX_TRIES; attempt++) {
      try (RawHttp http = new RawHttp(port)) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head =
            "POST /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Content-Type: application/json\r\nContent-Length: "
                + bytes.length
                + "\r\nIdempotency-Key: "
                + key
                + "\r\n\r\n";
        http.send(head.getBytes(StandardCharsets.ISO_8859_1));
        http.send(bytes);
        return http.answer();
      } catch (IOException lost) {
        last = lost;
      }
    }
    throw new IOException("no answer in " + MAX_TRIES + " tries", last);
  }
}
