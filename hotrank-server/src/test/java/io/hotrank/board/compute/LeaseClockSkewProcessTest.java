package io.hotrank.board.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Two instances whose wall clocks disagree by ten minutes (one runs under libfaketime) share leader
 * leases on both stores. Expiry is the store's business, so the skew changes nothing: each real
 * cycle is computed once, the leader keeps its lease, and when the leader dies the other takes over
 * within the lease's time to live plus one interval of real time. Were expiry reckoned by an
 * instance's clock, the fast one would steal a live lease at once, or the slow one would wait ten
 * minutes.
 */
@Tag("process")
@Isolated // its assertions bound a failover, a lease or a cycle in seconds: run alone
class LeaseClockSkewProcessTest {

  private static final Pattern RUN =
      Pattern.compile(
          "job=(\\S+) cycle=(\\S+) fence=\\d+ instance=(\\S+) trigger=schedule outcome=succeeded");
  private static final Duration SKEW = Duration.ofMinutes(10);
  private static final Duration TTL = Duration.ofSeconds(2);
  private static final List<String> JOBS = List.of("board-skew-jdbc", "board-skew-redis");

  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  /** Runs by cycle, as each instance named it. */
  private static Map<String, Map<Instant, List<String>>> runs(List<ServiceProcess> instances) {
    Map<String, Map<Instant, List<String>>> runs = new TreeMap<>();
    for (ServiceProcess process : instances) {
      for (String line : process.lines()) {
        Matcher m = RUN.matcher(line);
        if (m.find()) {
          Instant cycle = Instant.parse(m.group(2));
          runs.computeIfAbsent(m.group(1), j -> new TreeMap<>())
              .computeIfAbsent(cycle, c -> new ArrayList<>())
              .add(m.group(3));
        }
      }
    }
    return runs;
  }

  @Test
  void instancesWithSkewedClocks_shareLeasesAsIfTheirClocksAgreed() throws Exception {
    // .ci/run installs it (Debian package faketime); elsewhere the test says why it did not run.
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.nio.file.Files.isExecutable(Path.of("/usr/bin/faketime")),
        "libfaketime's faketime command is not installed (apt-get install faketime)");
    Map<String, ServiceProcess> started =
        processes.startTogether(List.of(instance("skewed", true), instance("exact", false)));
    ServiceProcess s = started.get("skewed");
    ServiceProcess e = started.get("exact");
    List<ServiceProcess> both = List.of(s, e);
    Instant from = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
    Instant to = from.plusSeconds(6);
    await("6 cycles")
        .atMost(Duration.ofSeconds(40))
        .until(
            () ->
                JOBS.stream()
                    .allMatch(
                        j ->
                            runs(both).getOrDefault(j, Map.of()).keySet().stream()
                                .anyMatch(c -> !c.isBefore(to))));
    Map<String, Map<Instant, List<String>>> runs = runs(both);
    assertThat(s.output())
        .as("the skewed instance noticed")
        .containsPattern("This instance's clock is (599|600)\\d{3} ms ahead of jdbc's")
        .containsPattern("This instance's clock is (599|600)\\d{3} ms ahead of redis's");
    assertThat(s.lines().stream().filter(l -> l.contains(" cycle=")))
        .as("the skewed instance's cycles, named by the stores' clocks")
        .allSatisfy(
            l ->
                assertThat(Instant.parse(l.replaceAll(".* cycle=(\\S+) .*", "$1")))
                    .isBefore(Instant.now().plusSeconds(60)));
    for (String job : JOBS) {
      List<String> leaders = new ArrayList<>();
      for (Instant c = from; c.isBefore(to); c = c.plusSeconds(1)) {
        List<String> by = runs.get(job).get(c);
        assertThat(by).as("%s cycle %s computed by", job, c).hasSize(1);
        leaders.add(by.getFirst());
      }
      assertThat(leaders.stream().distinct()).as("%s: one leader throughout", job).hasSize(1);
    }

    String leader = runs.get(JOBS.getFirst()).get(from).getFirst();
    ServiceProcess victim = leader.equals("skewed") ? s : e;
    String survivor = leader.equals("skewed") ? "exact" : "skewed";
    Instant killedAt = Instant.now();
    victim.signal("KILL");
    victim.process().waitFor();
    Instant bound = killedAt.plus(TTL).plusSeconds(1).plusMillis(500);
    await("the " + survivor + " instance takes over")
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                runs(both).get(JOBS.getFirst()).entrySet().stream()
                    .anyMatch(
                        r -> r.getKey().isAfter(killedAt) && r.getValue().contains(survivor)));
    Instant takeover =
        runs(both).get(JOBS.getFirst()).entrySet().stream()
            .filter(r -> r.getKey().isAfter(killedAt) && r.getValue().contains(survivor))
            .findFirst()
            .orElseThrow()
            .getKey();
    assertThat(takeover).as("takeover by %s (killed at %s)", survivor, killedAt).isBefore(bound);
  }

  /** An instance on the test's Redis and database, its clock ten minutes ahead if {@code skew}. */
  private static ServiceProcesses.Instance instance(String name, boolean skew) throws Exception {
    List<String> args = new ArrayList<>(processes.engineArgs());
    args.addAll(
        List.of(
            "--hotrank.instance-id=" + name,
            "--hotrank.job.mode=leader",
            "--hotrank.job.lease-ttl=" + TTL.toMillis() + "ms",
            "--hotrank.jobs.board-skew-jdbc.store=jdbc",
            "--hotrank.jobs.board-skew-redis.store=redis"));
    for (int i = 0; i < 2; i++) {
      String board = i == 0 ? "skew-jdbc" : "skew-redis";
      args.add("--hotrank.boards[" + i + "].name=" + board);
      args.add("--hotrank.boards[" + i + "].biz=skew");
      args.add("--hotrank.boards[" + i + "].refresh=* * * * * *");
    }
    ServiceProcesses.Instance instance = ServiceProcesses.instance(name).withArgs(args);
    return skew ? instance.withClockAhead(SKEW) : instance;
  }
}
