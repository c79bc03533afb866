package io.hotrank.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.BoardReads;
import io.hotrank.support.EventModel;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import io.hotrank.support.TestDatabase;
import io.hotrank.support.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Nothing accepted is lost and nothing is counted twice, with hotrank as its own process: killed
 * with {@code kill -9} right after a run of 202s (on the embedded default's H2 file and on
 * PostgreSQL), killed in the middle of a fold and right after one committed, and with its Redis
 * restarted empty under a steady stream of events. Afterwards the item counters, a leaderboard and
 * a window board must equal what the 202s promised.
 */
@Tag("process")
class EventsDurabilityProcessTest {

  private static final int ITEMS = 10;
  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  /** One Redis for the class: each test's keys live under a prefix of its own. */
  private static RedisProcess redis;

  @BeforeAll
  static void startRedis() throws Exception {
    redis = processes.redis();
  }

  private static List<String> args(String biz, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--spring.data.redis.url=" + redis.url(),
                "--hotrank.redis.key-prefix=" + biz + ":",
                "--hotrank.ingest.fold-interval=100ms",
                // A killed instance's leases (the folder's, the boards') lapse in seconds, so the
                // next instance takes its jobs over without waiting out the default 30 s.
                "--hotrank.job.lease-ttl=5s",
                "--hotrank.boards[0].name=" + biz + "-liked",
                "--hotrank.boards[0].biz=" + biz,
                "--hotrank.boards[0].type=leaderboard",
                "--hotrank.boards[0].counter=like",
                "--hotrank.boards[0].shards=3",
                "--hotrank.boards[0].size=" + ITEMS,
                "--hotrank.boards[1].name=" + biz + "-hour",
                "--hotrank.boards[1].biz=" + biz,
                "--hotrank.boards[1].type=window",
                "--hotrank.boards[1].window=1h",
                "--hotrank.boards[1].weights.like=1",
                "--hotrank.boards[1].weights.view=1",
                "--hotrank.boards[1].size=" + ITEMS));
    args.addAll(List.of(extra));
    return args;
  }

  private static ServiceProcess start(String name, List<String> args, String... jvmOptions)
      throws Exception {
    return processes.start(
        ServiceProcesses.instance(name).withJvmOptions(jvmOptions).withArgs(args));
  }

  private static void createItems(HttpJson http, String biz) {
    for (long id = 1; id <= ITEMS; id++) {
      Answer created =
          http.post(
              "/api/v1/items",
              HttpJson.json(Map.of("biz", biz, "id", id, "authorId", 1, "title", "item " + id)));
      assertThat(created.status()).as(created.body()).isIn(201, 409);
    }
  }

  /** Posts batches for {@code millis}; the model gets those answered 202. Returns how many. */
  private static int stream(
      HttpJson http, String biz, EventModel model, long millis, Random random) {
    int accepted = 0;
    long end = System.nanoTime() + millis * 1_000_000;
    while (System.nanoTime() < end) {
      List<Map<String, Object>> events = EventModel.randomBatch(biz, ITEMS, random, 100);
      Answer answer = http.post("/api/v1/events", HttpJson.json(Map.of("events", events)));
      if (answer.status() == 202) {
        model.add(events);
        accepted++;
      } else {
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
      }
    }
    return accepted;
  }

  /** Counters, the leaderboard and the window board, once folded and published, match the model. */
  private static void assertMatches(HttpJson http, String biz, EventModel model) {
    Answer folded = http.admin("/api/v1/admin/events/fold");
    assertThat(folded.status()).as(folded.body()).isEqualTo(200);
    model.assertCounters(http, biz, ITEMS);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(http.admin("/api/v1/admin/boards/" + biz + "-liked/recompute").status())
                  .isEqualTo(200);
              assertThat(http.admin("/api/v1/admin/boards/" + biz + "-hour/recompute").status())
                  .isEqualTo(200);
              Map<Long, Double> liked = BoardReads.scores(http, biz + "-liked", ITEMS);
              Map<Long, Double> hour = BoardReads.scores(http, biz + "-hour", ITEMS);
              model
                  .counts()
                  .forEach(
                      (id, c) -> {
                        assertThat(liked.getOrDefault(id, 0.0))
                            .as("likes of %d", id)
                            .isEqualTo(c[0]);
                        assertThat(hour.get(id))
                            .as("window score of %d", id)
                            .isEqualTo(c[0] + c[1]);
                      });
            });
  }

  private static void awaitMoreAccepted(AtomicInteger accepted, int more) {
    int from = accepted.get();
    await().atMost(Duration.ofSeconds(30)).until(() -> accepted.get() >= from + more);
  }

  /** Posts for a while, is killed right after its last 202, and is started again on its data. */
  private static void killRightAfterAcceptedBatches(String biz, List<String> args)
      throws Exception {
    EventModel model = new EventModel();
    Random random = new Random(biz.hashCode());
    ServiceProcess first = start(biz + "-1", args);
    try {
      createItems(first.http(), biz);
      assertThat(stream(first.http(), biz, model, 1000, random)).isPositive();
      first.signal("KILL");
    } finally {
      first.close();
    }
    try (ServiceProcess second = start(biz + "-2", args)) {
      assertMatches(second.http(), biz, model);
    }
  }

  @Test
  @EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_POSTGRES_URL", matches = ".+")
  void acceptedBatches_surviveKill9_onPostgres() throws Exception {
    TestEngines.exercised(TestDatabase.POSTGRES.engine());
    String url = TestDatabase.POSTGRES.url();
    String user = TestDatabase.POSTGRES.user();
    String password = TestDatabase.POSTGRES.password();
    String database = "hotrank_durability_test";
    try (Connection c = DriverManager.getConnection(url, user, password)) {
      c.createStatement().execute("DROP DATABASE IF EXISTS " + database);
      c.createStatement().execute("CREATE DATABASE " + database);
    }
    String own = url.substring(0, url.lastIndexOf('/') + 1) + database;
    killRightAfterAcceptedBatches(
        "pg",
        args(
            "pg",
            "--spring.datasource.url=" + own,
            "--spring.datasource.username=" + user,
            "--spring.datasource.password=" + password,
            "--hotrank.data-dir=" + processes.dir("pg-data")));
  }

  /**
   * A folder killed inside a fold's transaction (it rolls back) and one killed after a fold
   * committed but before Redis heard of it (the next folder replays that fold into Redis, item
   * counters included).
   */
  @Test
  void aFolderKilledMidFold_orRightAfterACommit_losesAndDoublesNothing() throws Exception {
    TestEngines.exercised("H2");
    String biz = "midfold";
    Path faults = processes.dir("faults");
    List<String> args = args(biz, "--hotrank.data-dir=" + processes.dir("midfold-data"));
    EventModel model = new EventModel();
    Random random = new Random(7);
    for (String point : List.of("before-commit", "after-commit")) {
      try (ServiceProcess folder =
          start(biz + "-" + point, args, "-Dhotrank.fault.dir=" + faults)) {
        createItems(folder.http(), biz);
        stream(folder.http(), biz, model, 500, random);
        folder.http().admin("/api/v1/admin/events/fold");
        Files.writeString(faults.resolve("event-fold." + point), "60000");
        // One batch, so that the fold the process dies in (or after) holds all that is unfolded,
        // and nothing is left for the next process to fold and rewrite these items' counters with.
        List<Map<String, Object>> events = EventModel.randomBatch(biz, ITEMS, random, 100);
        Answer answer =
            folder.http().post("/api/v1/events", HttpJson.json(Map.of("events", events)));
        assertThat(answer.status()).as(answer.body()).isEqualTo(202);
        model.add(events);
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> folder.output().contains("point=" + point));
        folder.signal("KILL");
      }
    }
    try (ServiceProcess last = start(biz + "-last", args)) {
      // Before any new event: the counters of the fold whose process died before writing them to
      // Redis are rewritten by the next fold or catch-up, not left stale until their entries
      // expire.
      assertMatches(last.http(), biz, model);
      stream(last.http(), biz, model, 500, random);
      assertMatches(last.http(), biz, model);
    }
  }

  /**
   * Redis restarted empty while events stream in: the boards are rebuilt, nothing counted twice.
   */
  @Test
  void aRedisRestart_underASteadyStream_losesAndDoublesNothing() throws Exception {
    TestEngines.exercised("H2");
    String biz = "restart";
    EventModel model = new EventModel();
    try (ServiceProcess service =
        start(biz, args(biz, "--hotrank.data-dir=" + processes.dir("restart-data")))) {
      HttpJson http = service.http();
      createItems(http, biz);
      AtomicBoolean streaming = new AtomicBoolean(true);
      AtomicInteger accepted = new AtomicInteger();
      Thread client =
          Thread.ofPlatform()
              .start(
                  () -> {
                    Random random = new Random(3);
                    while (streaming.get()) {
                      accepted.addAndGet(stream(http, biz, model, 200, random));
                    }
                  });
      // Each phase lasts until the stream has had a few more batches accepted.
      awaitMoreAccepted(accepted, 5);
      redis.stop();
      awaitMoreAccepted(accepted, 5);
      redis.startAgain();
      awaitMoreAccepted(accepted, 10);
      streaming.set(false);
      client.join(30_000);
      assertThat(client.isAlive()).isFalse();
      assertMatches(http, biz, model);
    }
  }

  /**
   * The crash-restart of a single instance on the embedded default, with the default lease time to
   * live (30 s): the restarted process takes its earlier life's leases at once (same instance id,
   * from the data directory; a higher fence), so the counters and the window board move again at
   * once after readiness, not 30 s later, and every 202 is counted once.
   */
  @Test
  void aCrashRestart_withTheDefaultLeases_foldsAndPublishesAgainAtOnce() throws Exception {
    TestEngines.exercised("H2");
    String biz = "crash";
    List<String> defaults = new ArrayList<>(args(biz, "--hotrank.data-dir=" + processes.dir(biz)));
    defaults.remove("--hotrank.job.lease-ttl=5s");
    defaults.remove("--hotrank.ingest.fold-interval=100ms");
    EventModel model = new EventModel();
    Random random = new Random(27);
    long fenceBefore;
    long leaseLeft;
    long killed;
    String instance;
    ServiceProcess first = start(biz + "-1", defaults);
    try {
      createItems(first.http(), biz);
      assertThat(stream(first.http(), biz, model, 2000, random)).isPositive();
      JsonNode fold = foldJob(first.http());
      assertThat(fold.get("heldHere").asBoolean()).isTrue();
      fenceBefore = fold.get("lease").get("fence").asLong();
      instance =
          first
              .http()
              .get("/api/v1/admin/jobs", first.http().adminHeader())
              .json()
              .get("instance")
              .asString();
      stream(first.http(), biz, model, 500, random);
      // How long the killed process's fold lease would still stand, by the store's clock.
      leaseLeft = foldJob(first.http()).get("lease").get("expiresInMs").asLong();
      first.signal("KILL");
      killed = System.nanoTime();
    } finally {
      first.close();
    }
    try (ServiceProcess second = start(biz + "-2", defaults)) {
      long ready = System.nanoTime();
      HttpJson http = second.http();
      assertThat(
              http.get("/api/v1/admin/jobs", http.adminHeader()).json().get("instance").asString())
          .as("the same name, from the data directory")
          .isEqualTo(instance);
      List<Map<String, Object>> after = EventModel.randomBatch(biz, ITEMS, random, 100);
      Answer accepted = http.post("/api/v1/events", HttpJson.json(Map.of("events", after)));
      assertThat(accepted.status()).as(accepted.body()).isEqualTo(202);
      model.add(after);
      // Well under the 30 s a lease held by the killed process would otherwise have left.
      await("the scheduled fold (no manual one) counts every 202")
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(50))
          .untilAsserted(() -> model.assertCounters(http, biz, ITEMS));
      long counted = System.nanoTime() - ready;
      long heldAgain = (System.nanoTime() - killed) / 1_000_000;
      // Folded by the new process before the old one's lease would have run out: taken over, not
      // waited out (a slow start past it would make this test prove nothing, so it fails then).
      assertThat(heldAgain)
          .as("ms from the kill to the new fold, against the lease's")
          .isLessThan(leaseLeft);
      await("the window board publishes every 202")
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(50))
          .untilAsserted(
              () -> {
                Map<Long, Double> hour = BoardReads.scores(http, biz + "-hour", ITEMS);
                model
                    .counts()
                    .forEach(
                        (id, c) ->
                            assertThat(hour.get(id))
                                .as("window score of %d", id)
                                .isEqualTo(c[0] + c[1]));
              });
      long published = System.nanoTime() - ready;
      JsonNode fold = foldJob(http);
      assertThat(fold.get("heldHere").asBoolean()).isTrue();
      assertThat(fold.get("lease").get("fence").asLong()).isGreaterThan(fenceBefore);
      System.out.printf(
          "crash-restart: counters moved %d ms and the window board %d ms after readiness%n",
          counted / 1_000_000, published / 1_000_000);
      // The rest of what the 202s promise: the leaderboard, and batch recomputes of both.
      assertMatches(http, biz, model);
    }
  }

  private static JsonNode foldJob(HttpJson http) {
    for (JsonNode job : http.get("/api/v1/admin/jobs", http.adminHeader()).json().get("jobs")) {
      if (job.get("name").asString().equals("event-fold")) {
        return job;
      }
    }
    throw new AssertionError("no event-fold job");
  }
}
