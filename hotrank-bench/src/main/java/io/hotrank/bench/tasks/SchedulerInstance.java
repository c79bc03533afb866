package io.hotrank.bench.tasks;

import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One scheduler instance, in a JVM of its own started by the coordinator ({@code TaskBench
 * --role=instance ...}). Driven by lines on standard input and answering on standard output, every
 * answer prefixed with {@value #PREFIX} (logs go to standard error):
 *
 * <ul>
 *   <li>at start: connect (all pool connections opened), build the scheduler, answer {@code READY}
 *   <li>{@code GO}: start polling, answer {@code STARTED}
 *   <li>{@code MARK}: answer {@code MARKED executed=N cpu_ms=M}, counted from the GO
 *   <li>{@code STOP}: stop gracefully, answer {@code STOPPED executed=N cpu_ms=M}, exit
 *   <li>end of input (the coordinator is gone): halt at once, so that no instance outlives a run
 * </ul>
 */
final class SchedulerInstance {

  static final String PREFIX = "@bench ";

  private SchedulerInstance() {}

  static int run(String[] args) throws Exception {
    Map<String, String> options = parse(args);
    BenchScheduler scheduler = TaskBench.scheduler(options.get("scheduler"));
    BenchDb db = BenchDb.fromEnvironment(BenchDb.Kind.of(options.get("db")));
    String mode = options.get("mode");
    String name = options.get("name");
    InstanceSettings settings = InstanceSettings.fromArgs(options);
    // Each scheduler's pool as it ships: hotrank's at READ COMMITTED, db-scheduler's at the
    // default.
    HikariDataSource dataSource =
        db.pool("bench-" + name, settings.threads() + 5, scheduler instanceof HotrankTaskBench);
    Workload workload =
        new Workload(
            dataSource,
            name,
            Duration.parse(options.get("long-run")),
            Duration.parse(options.get("stall-run")));
    BenchScheduler.Node node = scheduler.node(dataSource, db, mode, name, settings, workload);
    answer("READY");

    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    long cpuAtStart = 0;
    String line;
    while ((line = in.readLine()) != null) {
      switch (line.strip()) {
        case "GO" -> {
          cpuAtStart = processCpuNanos();
          node.start();
          answer("STARTED");
        }
        case "MARK" ->
            answer(
                "MARKED executed="
                    + workload.executed()
                    + " cpu_ms="
                    + (processCpuNanos() - cpuAtStart) / 1_000_000);
        case "STOP" -> {
          node.stop();
          long cpu = processCpuNanos() - cpuAtStart;
          dataSource.close();
          answer("STOPPED executed=" + workload.executed() + " cpu_ms=" + cpu / 1_000_000);
          return 0;
        }
        default -> System.err.println("Unknown command: " + line);
      }
    }
    // The coordinator died or closed our input: nothing may keep running.
    Runtime.getRuntime().halt(3);
    return 3;
  }

  private static void answer(String message) {
    System.out.println(PREFIX + message);
    System.out.flush();
  }

  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : 0;
  }

  /** {@code --key=value} arguments; {@code --role} included. */
  static Map<String, String> parse(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (String arg : args) {
      if (!arg.startsWith("--") || !arg.contains("=")) {
        throw new IllegalArgumentException("Expected --key=value, got " + arg);
      }
      options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
    }
    return options;
  }
}
