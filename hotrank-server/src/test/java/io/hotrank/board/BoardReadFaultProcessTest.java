package io.hotrank.board;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.H2ServerProcess;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The read path under faults, with hotrank instances, Redis and the database each running as their
 * own processes, started, stopped, killed and frozen by the test.
 */
@Tag("process")
@Isolated // its assertions bound a failover, a lease or a cycle in seconds: run alone
class BoardReadFaultProcessTest {

  private static final String BOARD = "/api/v1/boards/article-hot";

  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  /** Starts an instance on the test's Redis and database, scheduling off. */
  private static ServiceProcess start(String name, String... extra) throws Exception {
    return processes.start(instance(name, extra));
  }

  private static ServiceProcesses.Instance instance(String name, String... extra) throws Exception {
    List<String> args = new ArrayList<>(processes.engineArgs());
    args.addAll(
        List.of(
            "--hotrank.board.scheduling=false",
            "--hotrank.board.unavailable-retry-after=3s",
            "--hotrank.boards[0].name=article-hot",
            "--hotrank.boards[0].biz=article",
            "--hotrank.boards[0].refresh=0 0 0 1 1 *",
            "--hotrank.boards[1].name=cold",
            "--hotrank.boards[1].biz=cold",
            "--hotrank.boards[1].refresh=0 0 0 1 1 *"));
    args.addAll(List.of(extra));
    return ServiceProcesses.instance(name).withArgs(args);
  }

  /** Creates three items with likes and recomputes the board; returns the version. */
  private static long seedAndRecompute(HttpJson http) {
    for (int id = 1; id <= 3; id++) {
      Answer created =
          http.post(
              "/api/v1/items",
              "{\"biz\":\"article\",\"id\":"
                  + id
                  + ",\"authorId\":1,\"title\":\"item "
                  + id
                  + "\"}");
      assertThat(created.status()).as(created.body()).isIn(201, 409);
      StringBuilder likes = new StringBuilder();
      for (int k = 0; k < id; k++) {
        likes
            .append(k == 0 ? "" : ",")
            .append("{\"biz\":\"article\",\"itemId\":")
            .append(id)
            .append(",\"type\":\"like\"}");
      }
      assertThat(http.post("/api/v1/events", "{\"events\":[" + likes + "]}").status())
          .isEqualTo(202);
    }
    assertThat(http.admin("/api/v1/admin/events/fold").status()).isEqualTo(200);
    return recompute(http);
  }

  private static long recompute(HttpJson http) {
    Answer recomputed = http.admin("/api/v1/admin/boards/article-hot/recompute");
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
    return recomputed.json().get("version").asLong();
  }

  private static long servedVersion(ServiceProcess instance) {
    Answer read = instance.http().get(BOARD);
    return read.status() == 200 ? read.json().get("version").asLong() : -1;
  }

  /**
   * With a layer down and boards held in memory: readiness (what a load balancer asks) stays UP on
   * every probe, the overall health reports Redis DOWN with 503, and the outage is logged once, not
   * once per probe.
   */
  private static void assertProbes_readyButRedisDown_loggedOnce(
      ServiceProcess service, String outageLine) {
    HttpJson http = service.http();
    for (int probe = 0; probe < 3; probe++) {
      Answer readiness = http.get("/actuator/health/readiness");
      assertThat(readiness.status()).as(readiness.body()).isEqualTo(200);
      Answer overall = http.get("/actuator/health");
      assertThat(overall.status()).as(overall.body()).isEqualTo(503);
      assertThat(overall.json().get("components").get("redis").get("status").asString())
          .isEqualTo("DOWN");
      assertThat(overall.json().get("components").get("boards").get("status").asString())
          .isEqualTo("UP");
    }
    String output = service.output();
    assertThat(output.split(java.util.regex.Pattern.quote(outageLine), -1).length - 1)
        .as("lines logging '%s'", outageLine)
        .isEqualTo(1);
    assertThat(output).doesNotContain("health check failed");
  }

  @Test
  void redisDown_thenDatabaseDown_theLastBoardIsStillServedLocally() throws Exception {
    RedisProcess redis = processes.redis();
    H2ServerProcess db = processes.h2Server();
    ServiceProcess service = start("a");
    HttpJson http = service.http();
    seedAndRecompute(http);
    Answer before = http.get(BOARD);
    assertThat(before.status()).isEqualTo(200);

    redis.stop();
    Answer withoutRedis = http.get(BOARD);
    assertThat(withoutRedis.status()).isEqualTo(200);
    assertThat(withoutRedis.header("X-Hotrank-Source")).isEqualTo("local");
    assertThat(withoutRedis.body()).isEqualTo(before.body());
    assertProbes_readyButRedisDown_loggedOnce(service, "Redis does not answer");

    db.kill();
    Answer withNothing = http.get(BOARD);
    assertThat(withNothing.status()).isEqualTo(200);
    assertThat(withNothing.header("X-Hotrank-Source")).isEqualTo("local");
    assertThat(withNothing.body()).isEqualTo(before.body());
    assertProbes_readyButRedisDown_loggedOnce(service, "The database does not answer");

    Answer cold = http.get("/api/v1/boards/cold");
    assertThat(cold.status()).as(cold.body()).isEqualTo(503);
    assertThat(cold.header("Retry-After")).isEqualTo("3");
    assertThat(cold.header("Content-Type")).startsWith("application/problem+json");
    assertThat(service.process().isAlive()).isTrue();
  }

  @Test
  void freshInstance_withRedisDown_startsReady_servesTheDatabaseSnapshot_andUsesRedisWhenItReturns()
      throws Exception {
    RedisProcess redis = processes.redis();
    ServiceProcess a = start("a");
    long v1 = seedAndRecompute(a.http());
    redis.stop();

    ServiceProcess b = start("b");
    assertThat(b.http().get("/actuator/health/readiness").status()).isEqualTo(200);
    Answer fromDb = b.http().get(BOARD);
    assertThat(fromDb.status()).as(fromDb.body()).isEqualTo(200);
    assertThat(fromDb.json().get("version").asLong()).isEqualTo(v1);
    assertThat(fromDb.header("X-Hotrank-Origin")).isEqualTo("db");

    redis.startAgain();
    // Both instances resubscribe by themselves...
    await("a and b subscribed again")
        .atMost(Duration.ofSeconds(20))
        .until(() -> redis.command("PUBSUB NUMSUB hr:boards").contains(":2"));
    // ...and a's next publishes reach the new, empty Redis.
    await("a publishing to Redis again")
        .atMost(Duration.ofSeconds(20))
        .until(
            () -> {
              long v = recompute(a.http());
              return redis.command("GET hr:{b:article-hot}:ver").contains("\r\n" + v + "\r\n");
            });
    long v2 = recompute(a.http());
    await("b serves v" + v2 + " from Redis")
        .atMost(Duration.ofSeconds(2))
        .untilAsserted(
            () -> {
              Answer fromRedis = b.http().get(BOARD);
              assertThat(fromRedis.json().get("version").asLong()).isEqualTo(v2);
              assertThat(fromRedis.header("X-Hotrank-Origin")).isEqualTo("redis");
            });
  }

  @Test
  void twoInstances_converge_byNotice_andByTheVersionCheckWhenNoticesAreLost() throws Exception {
    RedisProcess redis = processes.redis();
    // Started together, as a cluster comes up: three starts in a row take three times as long.
    Map<String, ServiceProcess> started =
        processes.startTogether(
            List.of(
                instance("a"),
                instance(
                    "b",
                    "--hotrank.board.check-interval=2s",
                    "--spring.data.redis.client-name=hotrank-b"),
                instance(
                    "c", "--hotrank.board.check-interval=2s", "--hotrank.board.notices=false")));
    ServiceProcess a = started.get("a");
    ServiceProcess b = started.get("b");
    ServiceProcess c = started.get("c");
    long v1 = seedAndRecompute(a.http());
    await("b serves v" + v1 + " after the notice")
        .atMost(Duration.ofSeconds(1))
        .until(() -> servedVersion(b) == v1);

    String pubsub = redis.command("CLIENT LIST TYPE pubsub");
    // One Pub/Sub connection an instance: board and cache notices share it.
    List<String> ofB = pubsub.lines().filter(l -> l.contains("name=hotrank-b")).toList();
    assertThat(ofB).as("Pub/Sub connections of b:\n" + pubsub).hasSize(1);
    String id = ofB.getFirst().replaceAll(".*\\bid=(\\d+).*", "$1");
    assertThat(redis.command("CLIENT KILL ID " + id)).startsWith(":1");
    long v2 = recompute(a.http());
    await("b serves v" + v2 + " within its check interval")
        .atMost(Duration.ofSeconds(3))
        .until(() -> servedVersion(b) == v2);

    long v3 = recompute(a.http());
    await("c, without notices, serves v" + v3 + " within its check interval")
        .atMost(Duration.ofSeconds(3))
        .until(() -> servedVersion(c) == v3);
  }

  @Test
  void hungRedis_costsAReadOneTimeout_thenTheBreakerOpens() throws Exception {
    RedisProcess redis = processes.redis();
    ServiceProcess service =
        start(
            "a",
            "--hotrank.redis.read-timeout=50ms",
            "--spring.data.redis.timeout=20s",
            "--hotrank.redis.breaker-open-for=60s");
    seedAndRecompute(service.http());
    redis.freeze();
    // Without the guard a read of a board missing locally would wait for Redis's 20 s command
    // timeout; one second is the bound on any answer here.
    HttpJson impatient = service.http().withTimeout(Duration.ofSeconds(1));
    // Every read answers (the client gives up after 1 s, so a read blocked on Redis fails the
    // test), and the failed Redis reads open the breaker.
    await("the Redis read breaker opens")
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              Answer cold = impatient.get("/api/v1/boards/cold");
              assertThat(cold.status()).as(cold.body()).isEqualTo(503);
              Answer hot = impatient.get(BOARD);
              assertThat(hot.status()).isEqualTo(200);
              assertThat(hot.header("X-Hotrank-Source")).isEqualTo("local");
              Answer breaker =
                  impatient.get(
                      "/actuator/metrics/resilience4j.circuitbreaker.state"
                          + "?tag=name:redis-read&tag=state:open",
                      impatient.adminHeader());
              return breaker.status() == 200
                  && breaker.json().get("measurements").get(0).get("value").asDouble() == 1.0;
            });
    for (int i = 0; i < 5; i++) {
      assertThat(impatient.get("/api/v1/boards/cold").status()).isEqualTo(503);
    }
    redis.thaw();
  }
}
