package io.hotrank.board.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.H2ServerProcess;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;
import tools.jackson.databind.JsonNode;

/**
 * Three instances as separate processes on one Redis and one database (both their own processes),
 * four boards on a one-second cron, one per lease mode and store. What each instance ran is read
 * from its job log lines ({@code job=.. cycle=.. fence=.. instance=.. outcome=..}), the record
 * keyed by cycle that the claims are checked against. The tests share the processes and run in
 * order: exactly once per cycle; takeover after {@code kill -9}; a stalled ({@code kill -STOP})
 * holder's publish refused by the fence after it resumes; a Redis restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("process")
@Isolated // its assertions bound a failover, a lease or a cycle in seconds: run alone
class BoardJobsProcessTest {

  private static final Pattern RUN =
      Pattern.compile(
          "job=(\\S+) cycle=(\\S+) fence=(\\d+) instance=(\\S+) trigger=(\\S+) outcome=(\\S+)");
  private static final Pattern PUBLISHED =
      Pattern.compile("Board '(\\S+)' v(\\d+) published \\(.* computed (\\S+), fence");

  /** Board name to mode and store of its job. */
  private static final Map<String, String[]> BOARDS = new LinkedHashMap<>();

  static {
    BOARDS.put("pr-redis", new String[] {"per-run", "redis"});
    BOARDS.put("pr-jdbc", new String[] {"per-run", "jdbc"});
    BOARDS.put("ld-redis", new String[] {"leader", "redis"});
    BOARDS.put("ld-jdbc", new String[] {"leader", "jdbc"});
  }

  private static final Duration TTL = Duration.ofSeconds(3);
  private static final Duration INTERVAL = Duration.ofSeconds(1);

  /**
   * Long enough that each instance's first re-measure of the stores' clocks (every 30 s from its
   * start, which may move fire times) falls inside the checked cycles when the instances start
   * within about 25 s of each other, as they do here (they start together).
   */
  private static final int CYCLES = 33;

  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  private RedisProcess redis;
  private H2ServerProcess db;
  private final Map<String, ServiceProcess> alive = new LinkedHashMap<>();
  private final Map<String, Path> faults = new HashMap<>();
  private Instant allUp;

  /** One run as an instance logged it. */
  private record Run(
      String job, Instant cycle, long fence, String instance, String trigger, String outcome) {}

  @BeforeAll
  void startProcesses() throws Exception {
    redis = processes.redis();
    db = processes.h2Server();
    List<ServiceProcesses.Instance> instances = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      faults.put(name, processes.dir("faults-" + name));
      instances.add(
          ServiceProcesses.instance(name)
              .withJvmOptions("-Dhotrank.fault.dir=" + faults(name))
              .withArgs(args(name)));
    }
    alive.putAll(processes.startTogether(instances));
    allUp = Instant.now();
    HttpJson http = alive.get("a").http();
    for (int id = 1; id <= 5; id++) {
      Answer created =
          http.post(
              "/api/v1/items",
              HttpJson.json(Map.of("biz", "jobs", "id", id, "authorId", 1, "title", "item " + id)));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
    }
  }

  /** The directory of an instance's fault points ({@code -Dhotrank.fault.dir}). */
  private Path faults(String instance) {
    return faults.get(instance);
  }

  private List<String> args(String instance) throws Exception {
    List<String> args = new ArrayList<>(processes.engineArgs());
    args.addAll(
        List.of(
            "--hotrank.instance-id=" + instance,
            "--hotrank.job.lease-ttl=" + TTL.toMillis() + "ms",
            "--hotrank.board.check-interval=1s"));
    int i = 0;
    for (var board : BOARDS.entrySet()) {
      String job = "board-" + board.getKey();
      args.add("--hotrank.boards[" + i + "].name=" + board.getKey());
      args.add("--hotrank.boards[" + i + "].biz=jobs");
      args.add("--hotrank.boards[" + i + "].size=10");
      args.add("--hotrank.boards[" + i + "].refresh=* * * * * *");
      args.add("--hotrank.jobs." + job + ".mode=" + board.getValue()[0]);
      args.add("--hotrank.jobs." + job + ".store=" + board.getValue()[1]);
      i++;
    }
    return args;
  }

  /** Every run every instance (dead or alive) has logged so far. */
  private List<Run> runs() {
    List<Run> runs = new ArrayList<>();
    for (ServiceProcess process : processes.instances()) {
      for (String line : process.lines()) {
        Matcher m = RUN.matcher(line);
        if (m.find()) {
          runs.add(
              new Run(
                  m.group(1),
                  Instant.parse(m.group(2)),
                  Long.parseLong(m.group(3)),
                  m.group(4),
                  m.group(5),
                  m.group(6)));
        }
      }
    }
    return runs;
  }

  private Stream<Run> succeeded(String job) {
    return runs().stream()
        .filter(r -> r.job().equals(job))
        .filter(r -> r.trigger().equals("schedule") && r.outcome().equals("succeeded"));
  }

  /** The instance holding a job's lease, from the admin view. */
  private String holder(String job) {
    ServiceProcess any = alive.values().iterator().next();
    Answer view =
        any.http()
            .get("/api/v1/admin/jobs", "Authorization", "Bearer " + ServiceProcess.ADMIN_TOKEN);
    assertThat(view.status()).as(view.body()).isEqualTo(200);
    for (JsonNode node : view.json().get("jobs")) {
      if (node.get("name").asString().equals(job)) {
        JsonNode holder = node.get("lease").get("holder");
        return holder == null || holder.isNull() ? null : holder.asString();
      }
    }
    throw new AssertionError("no job " + job + " in " + view.body());
  }

  @Test
  @Order(1)
  void everyCycle_isComputedByExactlyOneInstance_inEachModeAndStore() {
    Instant from = allUp.plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
    Instant to = from.plusSeconds(CYCLES);
    await(CYCLES + " cycles of every board")
        .atMost(Duration.ofSeconds(CYCLES + 40))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () ->
                BOARDS.keySet().stream()
                    .allMatch(b -> succeeded("board-" + b).anyMatch(r -> !r.cycle().isBefore(to))));

    for (String board : BOARDS.keySet()) {
      String job = "board-" + board;
      Map<Instant, List<Run>> byCycle = new TreeMap<>();
      succeeded(job)
          .filter(r -> !r.cycle().isBefore(from) && r.cycle().isBefore(to))
          .forEach(r -> byCycle.computeIfAbsent(r.cycle(), c -> new ArrayList<>()).add(r));
      Set<Instant> missing = new TreeSet<>();
      for (Instant c = from; c.isBefore(to); c = c.plus(INTERVAL)) {
        if (!byCycle.containsKey(c)) {
          missing.add(c);
        }
      }
      assertThat(missing).as("%s: cycles nobody computed", job).isEmpty();
      byCycle.forEach(
          (cycle, runs) -> assertThat(runs).as("%s cycle %s computed by", job, cycle).hasSize(1));
      List<Long> fences = byCycle.values().stream().map(r -> r.getFirst().fence()).toList();
      for (int i = 1; i < fences.size(); i++) {
        if (BOARDS.get(board)[0].equals("per-run")) {
          assertThat(fences.get(i))
              .as("%s: a new lease per run", job)
              .isGreaterThan(fences.get(i - 1));
        } else {
          assertThat(fences.get(i))
              .as("%s: one lease across runs", job)
              .isEqualTo(fences.get(i - 1));
        }
      }
      if (BOARDS.get(board)[0].equals("leader")) {
        assertThat(byCycle.values().stream().map(r -> r.getFirst().instance()).distinct())
            .as("%s: one leader", job)
            .hasSize(1);
      }
    }
  }

  @Test
  @Order(2)
  void killingTheHolder_letsAnotherInstanceComputeWithinTtlPlusOneInterval() throws Exception {
    String victim = holder("board-ld-redis");
    assertThat(victim).isNotNull();
    List<String> ledByVictim =
        Stream.of("board-ld-redis", "board-ld-jdbc").filter(j -> victim.equals(holder(j))).toList();
    ServiceProcess process = alive.remove(victim);
    Instant killedAt = Instant.now();
    process.signal("KILL");
    process.process().waitFor();

    Instant bound = killedAt.plus(TTL).plus(INTERVAL).plusMillis(500);
    for (String job : ledByVictim) {
      Run takeover =
          await(job + " computed by another instance")
              .atMost(Duration.ofSeconds(20))
              .until(
                  () ->
                      succeeded(job)
                          .filter(r -> r.cycle().isAfter(killedAt))
                          .filter(r -> !r.instance().equals(victim))
                          .findFirst(),
                  java.util.Optional::isPresent)
              .orElseThrow();
      assertThat(takeover.cycle())
          .as("%s taken over (killed at %s)", job, killedAt)
          .isBefore(bound);
    }
    for (String board : BOARDS.keySet()) {
      await("board-" + board + " computed after the kill")
          .atMost(Duration.ofSeconds(20))
          .until(() -> succeeded("board-" + board).anyMatch(r -> r.cycle().isAfter(bound)));
    }
  }

  /**
   * For each board: a holder is made to pause after its last lease check, right before its fenced
   * write, and is stopped there past its lease; another instance takes over and publishes; the
   * stalled one resumes and tries to publish: refused by the fence, and the newer board stays.
   */
  @Test
  @Order(3)
  void aStalledHolder_resumingAfterATakeover_isRefusedByTheFence() throws Exception {
    for (String board : BOARDS.keySet()) {
      String job = "board-" + board;
      String name =
          BOARDS.get(board)[0].equals("leader") ? holder(job) : alive.keySet().iterator().next();
      assertThat(name).as("%s holder", job).isNotNull();
      ServiceProcess stalled = alive.get(name);
      Files.writeString(faults(name).resolve(job + ".before-publish"), "2000");
      String faultLine =
          await(job + " reaches the fault point on " + name)
              .atMost(Duration.ofSeconds(30))
              .pollInterval(Duration.ofMillis(20))
              .until(
                  () ->
                      stalled.lines().stream()
                          .filter(l -> l.contains("fault injected: job=" + job + " "))
                          .findFirst(),
                  java.util.Optional::isPresent)
              .orElseThrow();
      stalled.signal("STOP");
      Instant stoppedAt = Instant.now();
      long staleFence = Long.parseLong(faultLine.replaceAll(".*fence=(\\d+).*", "$1"));
      try {
        await(job + " published by another instance while " + name + " is stopped")
            .atMost(TTL.plusSeconds(15))
            .until(
                () ->
                    succeeded(job)
                        .anyMatch(r -> r.cycle().isAfter(stoppedAt) && !r.instance().equals(name)));
      } finally {
        stalled.signal("CONT");
      }
      long newerVersion = liveVersion(board);
      Run refused =
          await(name + "'s stale " + job + " run ends")
              .atMost(Duration.ofSeconds(20))
              .until(
                  () ->
                      runs().stream()
                          .filter(r -> r.job().equals(job) && r.instance().equals(name))
                          .filter(r -> r.fence() == staleFence && !r.outcome().equals("succeeded"))
                          .findFirst(),
                  java.util.Optional::isPresent)
              .orElseThrow();
      assertThat(refused.outcome()).isEqualTo("rejected");
      assertThat(stalled.output()).contains("publish under fence " + staleFence + " refused by db");
      assertThat(liveVersion(board))
          .as("%s live version", board)
          .isGreaterThanOrEqualTo(newerVersion);
      assertThat(storedFence(board)).as("%s stored fence", board).isGreaterThan(staleFence);
    }
  }

  @Test
  @Order(4)
  void aRedisRestart_jobsResumeByThemselves_andNoVersionIsPublishedTwice() throws Exception {
    redis.stop();
    Instant stoppedAt = Instant.now();
    try {
      // Database leases keep working without Redis (each publish waits out Redis's timeout).
      await("board-pr-jdbc computed with Redis down")
          .atMost(Duration.ofSeconds(15))
          .until(
              () ->
                  succeeded("board-pr-jdbc")
                      .anyMatch(r -> r.cycle().isAfter(stoppedAt.plusSeconds(1))));
    } finally {
      redis.startAgain();
    }
    Instant restartedAt = Instant.now();
    for (String board : BOARDS.keySet()) {
      await("board-" + board + " computed after Redis came back")
          .atMost(Duration.ofSeconds(30))
          .until(() -> succeeded("board-" + board).anyMatch(r -> r.cycle().isAfter(restartedAt)));
    }

    Map<String, Set<String>> contentsByVersion = new HashMap<>();
    int published = 0;
    for (ServiceProcess process : processes.instances()) {
      for (String line : process.lines()) {
        Matcher m = PUBLISHED.matcher(line);
        if (m.find()) {
          published++;
          contentsByVersion
              .computeIfAbsent(m.group(1) + " v" + m.group(2), v -> new TreeSet<>())
              .add(m.group(3));
        }
      }
    }
    assertThat(published).as("own publishes logged").isGreaterThan(4 * CYCLES);
    contentsByVersion.forEach(
        (version, computed) ->
            assertThat(computed).as("computations published as %s", version).hasSize(1));
  }

  private long liveVersion(String board) throws Exception {
    String answer = redis.command("GET hr:{b:" + board + "}:ver");
    return Long.parseLong(answer.replaceAll("(?s).*\\r\\n(\\d+)\\r\\n.*", "$1"));
  }

  private long storedFence(String board) throws Exception {
    try (Connection c = DriverManager.getConnection(db.url(), "sa", "");
        PreparedStatement q =
            c.prepareStatement("SELECT fence FROM hr_board_snapshot WHERE board = ?")) {
      q.setString(1, board);
      try (ResultSet rs = q.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getLong(1);
      }
    }
  }
}
