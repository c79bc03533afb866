package io.hotrank.bench.tasks;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import com.zaxxer.hikari.HikariDataSource;
import io.hotrank.bench.BenchMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.slf4j.LoggerFactory;

/**
 * Task schedulers side by side: each {@link BenchScheduler} (db-scheduler, hotrank) on each
 * database (PostgreSQL, MariaDB) in each of its modes, always with two scheduler instances, each a
 * JVM of its own ({@link SchedulerInstance}) started by this coordinator. Run by {@code
 * bench/tasks-vs-db-scheduler.sh}, which creates the databases, builds and runs this main.
 *
 * <ol>
 *   <li>Throughput: {@code HOTRANK_BENCH_TASKS_EXECUTIONS} (10,000) no-op one-time executions, all
 *       due, enqueued before the instances start; executions per second until the scheduler's table
 *       holds none of them (polled every 20 ms). On warm JVMs by default: {@code
 *       HOTRANK_BENCH_TASKS_WARMUP} (50,000) no-op executions due an hour earlier run first in the
 *       same instances (each scheduler takes due executions earliest first), and the clock starts
 *       at the first poll that finds none of them left, over the measured executions still pending
 *       then: a scheduler in service runs warm, and a cold round of a few seconds measures the JIT
 *       compiler as much as the scheduler (after a warm-up of 10,000, the JIT compiler threads
 *       still took 30-45% of the machine's CPU in hotrank's measured seconds and 6-19% in
 *       db-scheduler's, sampled with perf). With a warm-up of 0, from the GO sent to the two
 *       instances (connected, scheduler built). On PostgreSQL also the database's transactions per
 *       execution: the delta of {@code pg_stat_database.xact_commit} over the run (read with the
 *       instances connected but idle before, and after they exited, as a backend flushes its
 *       counters at the latest on exit), less this coordinator's own polls, over the executions.
 *   <li>Takeover after kill -9: a long-running execution started on instance A (B not polling yet),
 *       B started, 1-2 s later A is SIGKILLed; the time from the kill to B's start of that
 *       execution, read from the side effect B writes when the execution starts.
 *   <li>Duplicates after a stall: {@code HOTRANK_BENCH_TASKS_STALLED} (20) executions of {@code
 *       HOTRANK_BENCH_TASKS_STALL_RUN} (6 s), each writing a side effect at its start and one at
 *       its end, all started on A (B not polling yet); B started, A SIGSTOPped for the scheduler's
 *       {@link BenchScheduler#takeoverBound} + 2 s, then SIGCONTed; once the scheduler has no
 *       pending execution left, the executions whose end was written more than once.
 * </ol>
 *
 * <p>The throughput rounds run interleaved: round 1 of every scheduler, database and mode, then
 * round 2, and so on, so that a drift in the machine's speed over the run falls on all alike; a
 * summary gives each one's ratio to db-scheduler's lock-and-fetch on the same database, of the
 * means and round by round. The takeovers and the stalls follow, one combination after the other.
 *
 * <p>Environment: {@code HOTRANK_BENCH_TASKS_SCHEDULERS} (db-scheduler,hotrank), {@code
 * HOTRANK_BENCH_TASKS_DBS} (postgresql,mariadb), {@code HOTRANK_BENCH_TASKS_MODES} (all of each
 * scheduler's), {@code HOTRANK_BENCH_TASKS_EXECUTIONS} (10000), {@code HOTRANK_BENCH_TASKS_WARMUP}
 * (50000), {@code HOTRANK_BENCH_TASKS_ROUNDS} (throughput rounds, 3), {@code
 * HOTRANK_BENCH_TASKS_TAKEOVERS} (5), {@code HOTRANK_BENCH_TASKS_STALLED} (20), {@code
 * HOTRANK_BENCH_TASKS_STALL_RUN} (6s), {@code HOTRANK_BENCH_TASKS_THREADS} (20), {@code
 * HOTRANK_BENCH_TASKS_POLLING} (100ms), {@code HOTRANK_BENCH_TASKS_HEARTBEAT} (1s), {@code
 * HOTRANK_BENCH_TASKS_DEAD_AFTER} (3s), {@code HOTRANK_BENCH_TASKS_INSTANCE_XMX} (256m), {@code
 * HOTRANK_BENCH_TASKS_OUT} (hotrank-bench/target/tasks-bench.txt), {@code HOTRANK_BENCH_TASKS_LOGS}
 * (the instances' logs, hotrank-bench/target/tasks-bench-logs), {@code HOTRANK_BENCH_TASKS_PIDFILE}
 * (where each instance pid is appended, for the script's clean-up), {@code HOTRANK_BENCH_COMMAND};
 * the databases' in {@link BenchDb}.
 */
public final class TaskBench {

  /** The schedulers the bench knows, by name: a second implementation is one more entry. */
  static final Map<String, Supplier<BenchScheduler>> SCHEDULERS =
      Map.of("db-scheduler", DbSchedulerBench::new, "hotrank", HotrankTaskBench::new);

  /**
   * The one number {@code sql} answers, its parameters bound in order; one autocommit statement.
   */
  static long queryLong(Connection connection, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Coordinator's poll period while waiting for completion or a side effect. */
  static final long POLL_MILLIS = 20;

  /** Long enough for the sessions that just ended to have flushed their statistics. */
  static final long STATS_SETTLE_MILLIS = 1_000;

  private final Options options;
  private final String runToken = UUID.randomUUID().toString().substring(0, 8);
  private final List<InstanceProcess> live = new CopyOnWriteArrayList<>();
  private final Map<String, String> versions = new LinkedHashMap<>();
  private final List<String> settingsLines = new ArrayList<>();
  private final List<ThroughputRow> throughputRows = new ArrayList<>();
  private final List<TakeoverRow> takeoverRows = new ArrayList<>();
  private final List<StallRow> stallRows = new ArrayList<>();

  private TaskBench(Options options) {
    this.options = options;
  }

  public static void main(String[] args) {
    int code;
    try {
      boolean instance = Arrays.asList(args).contains("--role=instance");
      configureLogging(instance);
      code =
          instance ? SchedulerInstance.run(args) : new TaskBench(Options.fromEnvironment()).run();
    } catch (Throwable e) {
      e.printStackTrace();
      code = 1;
    }
    System.out.flush();
    // Bounded: whatever non-daemon thread a library left behind, the JVM ends here.
    System.exit(code);
  }

  static BenchScheduler scheduler(String name) {
    Supplier<BenchScheduler> supplier = SCHEDULERS.get(name);
    if (supplier == null) {
      throw new IllegalArgumentException(
          "Unknown scheduler " + name + "; known: " + SCHEDULERS.keySet());
    }
    return supplier.get();
  }

  /** A scheduler in one of its modes, on one database. */
  private record Combination(BenchScheduler scheduler, BenchDb db, String mode) {}

  record ThroughputRow(
      String scheduler,
      BenchDb.Kind db,
      String mode,
      int round,
      long executions,
      double seconds,
      long executedA,
      long executedB,
      long xactCommit,
      long xactRollback,
      long cpuMillis,
      double enqueueSeconds,
      String load1) {

    double rate() {
      return executions / seconds;
    }

    String combination() {
      return scheduler + " " + db.label + " " + mode;
    }
  }

  record TakeoverRow(
      String scheduler, BenchDb.Kind db, String mode, double boundSeconds, List<Double> seconds) {}

  record StallRow(
      String scheduler,
      BenchDb.Kind db,
      String mode,
      int stalled,
      double stallSeconds,
      int duplicatedEnds,
      int reStarted,
      int lost,
      int endsByStalled,
      int endsByOther,
      boolean settled) {}

  private int run() throws Exception {
    Thread cleanup = new Thread(this::closeAll, "task-bench-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    Files.createDirectories(options.logs);
    String loadBefore = loadAverage();
    Instant started = Instant.now();
    log(
        "run %s: schedulers %s, databases %s, instance logs in %s",
        runToken, options.schedulers, options.dbs, options.logs);
    List<Combination> combinations = new ArrayList<>();
    for (String schedulerName : options.schedulers) {
      BenchScheduler scheduler = scheduler(schedulerName);
      versions.put(scheduler.name(), scheduler.version());
      for (BenchDb.Kind kind : options.dbs) {
        BenchDb db = BenchDb.fromEnvironment(kind);
        versions.put(kind.label, db.serverVersion());
        for (String mode : scheduler.modes(db)) {
          if (!options.modes.isEmpty() && !options.modes.contains(mode)) {
            continue;
          }
          settingsLines.add(
              String.format(
                  "%s on %s, %s: %s",
                  scheduler.name(),
                  kind.label,
                  mode,
                  scheduler.describe(db, mode, options.settings)));
          combinations.add(new Combination(scheduler, db, mode));
        }
      }
    }
    // Rounds interleaved: each round runs every combination once, so that a drift in the machine's
    // speed over the run (a shared virtual machine) falls on every scheduler and mode alike.
    for (int round = 1; round <= options.rounds; round++) {
      for (Combination c : combinations) {
        throughput(c.scheduler(), c.db(), c.mode(), round);
      }
    }
    for (Combination c : combinations) {
      if (options.takeovers > 0) {
        takeover(c.scheduler(), c.db(), c.mode());
      }
      if (options.stalled > 0) {
        stall(c.scheduler(), c.db(), c.mode());
      }
    }
    String report = report(started, loadBefore, loadAverage());
    System.out.println();
    System.out.print(report);
    Files.createDirectories(options.out.toAbsolutePath().getParent());
    Files.writeString(options.out, report);
    log("report written to %s", options.out);
    closeAll();
    Runtime.getRuntime().removeShutdownHook(cleanup);
    return 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Scenarios

  private void throughput(BenchScheduler scheduler, BenchDb db, String mode, int round)
      throws Exception {
    String tag = "throughput" + round;
    List<String> ids = IntStream.range(0, options.executions).mapToObj(i -> "noop-" + i).toList();
    List<String> warmups = IntStream.range(0, options.warmup).mapToObj(i -> "warmup-" + i).toList();
    double enqueueSeconds;
    // A pool of its own, closed before the first reading: a session flushes its statistics at the
    // latest when it ends, so the enqueue's transactions land before the reading, not in the delta.
    try (HikariDataSource setup = db.pool("bench-coordinator", 2)) {
      reset(scheduler, db, setup);
      if (!warmups.isEmpty()) {
        scheduler.enqueue(setup, db, Workload.Kind.WARMUP, warmups);
      }
      long t = System.nanoTime();
      scheduler.enqueue(setup, db, Workload.Kind.NOOP, ids);
      enqueueSeconds = (System.nanoTime() - t) / 1e9;
    }
    InstanceProcess a = launch(scheduler, db, mode, "A", tag);
    InstanceProcess b = launch(scheduler, db, mode, "B", tag);
    awaitReady(a, b);
    Thread.sleep(STATS_SETTLE_MILLIS);
    // Tells a round disturbed by other work on the machine (the 1-minute load, before the GO).
    String load1 = loadAverage().split(" ")[0];
    long[] before = db.isPostgres() ? transactionCounts(db) : null;
    long polls = 0;
    long t0;
    long t1;
    long measured = options.executions;
    InstanceProcess.Stopped markA = new InstanceProcess.Stopped(0, 0);
    InstanceProcess.Stopped markB = markA;
    try (Connection watch = db.connect()) {
      t0 = System.nanoTime();
      a.send("GO");
      b.send("GO");
      a.await("STARTED", Duration.ofSeconds(30));
      b.await("STARTED", Duration.ofSeconds(30));
      long deadline = t0 + options.throughputTimeout.toNanos();
      if (!warmups.isEmpty()) {
        // Warm JVMs: the clock starts when the warm-up executions (due first) are all done; the
        // executions measured are those still pending then.
        while (scheduler.anyPending(watch, db, Workload.Kind.WARMUP)) {
          polls++;
          checkProgress(a, b, deadline, "warm-up executions");
          Thread.sleep(POLL_MILLIS);
        }
        polls++;
        t0 = System.nanoTime();
        markA = a.mark();
        markB = b.mark();
        measured = scheduler.pending(watch, db, Workload.Kind.NOOP);
        polls++;
      }
      while (true) {
        boolean pending = scheduler.anyPending(watch, db, Workload.Kind.NOOP);
        polls++;
        if (!pending) {
          t1 = System.nanoTime();
          break;
        }
        checkProgress(a, b, deadline, "executions");
        Thread.sleep(POLL_MILLIS);
      }
    }
    InstanceProcess.Stopped stoppedA = stop(a);
    InstanceProcess.Stopped stoppedB = stop(b);
    long commits = -1;
    long rollbacks = -1;
    if (before != null) {
      Thread.sleep(STATS_SETTLE_MILLIS);
      long[] after = transactionCounts(db);
      // Less the coordinator's own: one per poll, and the first reading's.
      commits = after[0] - before[0] - polls - 1;
      // Per execution over the whole round, warm-up included (the instances' counters reach
      // pg_stat_database up to a second late, so no reading in the middle would be exact), scaled
      // to the executions measured.
      commits = Math.round(commits * measured / (double) (options.executions + options.warmup));
      rollbacks = after[1] - before[1];
    }
    ThroughputRow row =
        new ThroughputRow(
            scheduler.name(),
            db.kind(),
            mode,
            round,
            measured,
            (t1 - t0) / 1e9,
            stoppedA.executed() - markA.executed(),
            stoppedB.executed() - markB.executed(),
            commits,
            rollbacks,
            stoppedA.cpuMillis() - markA.cpuMillis() + stoppedB.cpuMillis() - markB.cpuMillis(),
            enqueueSeconds,
            load1);
    throughputRows.add(row);
    log(
        "%s %s %s throughput round %d: %,.0f executions/s (%.2f s, A %d + B %d executed)%s",
        scheduler.name(),
        db.kind().label,
        mode,
        round,
        row.rate(),
        row.seconds(),
        row.executedA(),
        row.executedB(),
        commits >= 0
            ? String.format(
                Locale.ROOT, ", %.2f transactions/execution", commits / (double) row.executions())
            : "");
  }

  /** Fails the round when it runs past its timeout or an instance died. */
  private void checkProgress(InstanceProcess a, InstanceProcess b, long deadline, String pending) {
    if (System.nanoTime() > deadline || !a.alive() || !b.alive()) {
      throw new IllegalStateException(
          pending
              + " still pending "
              + (a.alive() && b.alive()
                  ? "after " + options.throughputTimeout
                  : "and an instance died; see " + options.logs));
    }
  }

  private void takeover(BenchScheduler scheduler, BenchDb db, String mode) throws Exception {
    List<Double> seconds = new ArrayList<>();
    Duration bound = scheduler.takeoverBound(options.settings);
    try (HikariDataSource setup = db.pool("bench-coordinator", 2)) {
      for (int round = 1; round <= options.takeovers; round++) {
        reset(scheduler, db, setup);
        String tag = "takeover" + round;
        InstanceProcess a = launch(scheduler, db, mode, "A", tag);
        InstanceProcess b = launch(scheduler, db, mode, "B", tag);
        awaitReady(a, b);
        a.go();
        String id = "long-" + round;
        scheduler.enqueue(setup, db, Workload.Kind.LONG, List.of(id));
        awaitEffect(setup, id, "start", "A", Duration.ofSeconds(30));
        b.go();
        // A random phase against A's heartbeat, so that the rounds sample it.
        Thread.sleep(1_000 + ThreadLocalRandom.current().nextLong(1_000));
        long killedAt = Workload.micros(Instant.now());
        a.kill();
        long restartedAt =
            awaitEffect(setup, id, "start", "B", bound.multipliedBy(3).plusSeconds(30));
        double takeover = (restartedAt - killedAt) / 1e6;
        seconds.add(takeover);
        log(
            "%s %s %s takeover round %d: %.2f s from kill -9 of A to B's start",
            scheduler.name(), db.kind().label, mode, round, takeover);
        stop(b);
        a.close();
        live.remove(a);
      }
    }
    takeoverRows.add(
        new TakeoverRow(scheduler.name(), db.kind(), mode, bound.toMillis() / 1e3, seconds));
  }

  private void stall(BenchScheduler scheduler, BenchDb db, String mode) throws Exception {
    Duration stall = scheduler.takeoverBound(options.settings).plusSeconds(2);
    int n = options.stalled;
    try (HikariDataSource setup = db.pool("bench-coordinator", 2)) {
      reset(scheduler, db, setup);
      InstanceProcess a = launch(scheduler, db, mode, "A", "stall");
      InstanceProcess b = launch(scheduler, db, mode, "B", "stall");
      awaitReady(a, b);
      a.go();
      List<String> ids = IntStream.range(0, n).mapToObj(i -> "stall-" + i).toList();
      scheduler.enqueue(setup, db, Workload.Kind.STALL, ids);
      awaitCount(setup, "start", "A", n, Duration.ofSeconds(30));
      b.go();
      a.signal("STOP");
      Thread.sleep(stall.toMillis());
      a.signal("CONT");
      // Settled: the scheduler has completed every execution, and a heartbeat period has passed
      // for late writes of the stalled instance (it resumes mid-execution).
      boolean settled = false;
      long deadline =
          System.nanoTime()
              + options.stallRun.multipliedBy(3).plus(stall).plusSeconds(30).toNanos();
      try (Connection watch = setup.getConnection()) {
        while (System.nanoTime() < deadline) {
          if (!scheduler.anyPending(watch, db, Workload.Kind.STALL)) {
            settled = true;
            break;
          }
          Thread.sleep(POLL_MILLIS * 5);
        }
      }
      Thread.sleep(Math.max(1_000, options.settings.heartbeatInterval().toMillis() * 2));
      stop(a);
      stop(b);
      StallRow row = countStall(setup, scheduler, db, mode, ids, stall, settled);
      stallRows.add(row);
      log(
          "%s %s %s stall: %d of %d executions wrote their end more than once, %d started more"
              + " than once, %d never ended",
          scheduler.name(),
          db.kind().label,
          mode,
          row.duplicatedEnds(),
          n,
          row.reStarted(),
          row.lost());
    }
  }

  private StallRow countStall(
      DataSource dataSource,
      BenchScheduler scheduler,
      BenchDb db,
      String mode,
      List<String> ids,
      Duration stall,
      boolean settled)
      throws SQLException {
    Map<String, int[]> perId = new HashMap<>(); // starts, ends, ends by A, ends by others
    ids.forEach(id -> perId.put(id, new int[4]));
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT task_id, phase, instance, COUNT(*) FROM "
                    + Workload.TABLE
                    + " GROUP BY task_id, phase, instance")) {
      while (rs.next()) {
        int[] counts = perId.get(rs.getString(1));
        if (counts == null) {
          continue;
        }
        int count = rs.getInt(4);
        if (rs.getString(2).equals("start")) {
          counts[0] += count;
        } else {
          counts[1] += count;
          counts[rs.getString(3).equals("A") ? 2 : 3] += count;
        }
      }
    }
    List<int[]> counts = List.copyOf(perId.values());
    return new StallRow(
        scheduler.name(),
        db.kind(),
        mode,
        ids.size(),
        stall.toMillis() / 1e3,
        (int) counts.stream().filter(x -> x[1] > 1).count(),
        (int) counts.stream().filter(x -> x[0] > 1).count(),
        (int) counts.stream().filter(x -> x[1] == 0).count(),
        counts.stream().mapToInt(x -> x[2]).sum(),
        counts.stream().mapToInt(x -> x[3]).sum(),
        settled);
  }

  // ---------------------------------------------------------------------------------------------
  // Instances and database helpers

  private InstanceProcess launch(
      BenchScheduler scheduler, BenchDb db, String mode, String name, String tag)
      throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + options.instanceXmx,
                "-Xmx" + options.instanceXmx,
                // Marks the run's processes, so the script's clean-up kills only its own.
                "-Dhotrank.bench.run=" + runToken,
                "-cp",
                System.getProperty("java.class.path"),
                TaskBench.class.getName(),
                "--role=instance",
                "--scheduler=" + scheduler.name(),
                "--db=" + db.kind().key,
                "--mode=" + mode,
                "--name=" + name,
                "--long-run=" + Duration.ofSeconds(120),
                "--stall-run=" + options.stallRun));
    command.addAll(options.settings.toArgs());
    Path log =
        options.logs.resolve(
            String.join("-", scheduler.name(), db.kind().key, mode, tag, name) + ".log");
    Files.deleteIfExists(log);
    InstanceProcess process = InstanceProcess.launch(name, command, log, options.pidFile);
    live.add(process);
    return process;
  }

  private static void awaitReady(InstanceProcess... instances) throws InterruptedException {
    for (InstanceProcess instance : instances) {
      instance.await("READY", Duration.ofSeconds(60));
    }
  }

  private InstanceProcess.Stopped stop(InstanceProcess instance) throws Exception {
    try {
      return instance.stop();
    } finally {
      instance.close();
      live.remove(instance);
    }
  }

  private void closeAll() {
    for (InstanceProcess instance : live) {
      instance.close();
    }
    live.clear();
  }

  private static void reset(BenchScheduler scheduler, BenchDb db, DataSource dataSource)
      throws Exception {
    scheduler.resetTables(dataSource, db);
    Workload.resetTable(dataSource);
  }

  /** {xact_commit, xact_rollback} of the bench database, read on a connection of its own. */
  private static long[] transactionCounts(BenchDb db) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT xact_commit, xact_rollback FROM pg_stat_database"
                    + " WHERE datname = current_database()")) {
      rs.next();
      return new long[] {rs.getLong(1), rs.getLong(2)};
    }
  }

  /** The time (µs) of the first {@code phase} side effect of {@code id} by {@code instance}. */
  private static long awaitEffect(
      DataSource dataSource, String id, String phase, String instance, Duration timeout)
      throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT MIN(at_micros) FROM "
                    + Workload.TABLE
                    + " WHERE task_id = ? AND phase = ? AND instance = ?")) {
      ps.setString(1, id);
      ps.setString(2, phase);
      ps.setString(3, instance);
      while (true) {
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          long at = rs.getLong(1);
          if (!rs.wasNull()) {
            return at;
          }
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "No " + phase + " of " + id + " by " + instance + " within " + timeout);
        }
        Thread.sleep(POLL_MILLIS);
      }
    }
  }

  /** Waits until {@code instance} has written {@code count} side effects of {@code phase}. */
  private static void awaitCount(
      DataSource dataSource, String phase, String instance, int count, Duration timeout)
      throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT COUNT(*) FROM " + Workload.TABLE + " WHERE phase = ? AND instance = ?")) {
      ps.setString(1, phase);
      ps.setString(2, instance);
      while (true) {
        int seen;
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          seen = rs.getInt(1);
        }
        if (seen >= count) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              instance + " wrote " + seen + " of " + count + " " + phase + "s within " + timeout);
        }
        Thread.sleep(POLL_MILLIS);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Report

  private String report(Instant started, String loadBefore, String loadAfter) {
    StringBuilder out = new StringBuilder();
    InstanceSettings s = options.settings;
    out.append("Task schedulers, two instances per run (each its own JVM, -Xmx")
        .append(options.instanceXmx)
        .append("), database on the same machine over TCP (127.0.0.1)\n");
    out.append("Date: ")
        .append(
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
                .withZone(ZoneOffset.UTC)
                .format(started.truncatedTo(ChronoUnit.MINUTES)))
        .append("; took ")
        .append(Duration.between(started, Instant.now()).toSeconds())
        .append(" s\n");
    out.append("Machine: ").append(machine()).append('\n');
    out.append("Load average (1/5/15 min): before ")
        .append(loadBefore)
        .append(", after ")
        .append(loadAfter)
        .append('\n');
    out.append("JVM: ")
        .append(System.getProperty("java.vm.name"))
        .append(' ')
        .append(Runtime.version())
        .append('\n');
    out.append("Versions: ")
        .append(
            versions.entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", ")))
        .append('\n');
    out.append("Command (from the repository root): ").append(options.command).append('\n');
    out.append(
        String.format(
            Locale.ROOT,
            "Common settings: %d threads per instance, polling %d ms, heartbeat %d ms,"
                + " dead after %d ms asked, graceful stop waits %d ms%n",
            s.threads(),
            s.pollingInterval().toMillis(),
            s.heartbeatInterval().toMillis(),
            s.deadAfter().toMillis(),
            s.shutdownWait().toMillis()));
    settingsLines.forEach(line -> out.append("  ").append(line).append('\n'));

    out.append(
        String.format(
            Locale.ROOT,
            "%n1. Throughput: %,d immediately due no-op one-time executions, enqueued beforehand;"
                + " %s until none is left in the scheduler's table%n",
            options.executions,
            options.warmup > 0
                ? String.format(
                    Locale.ROOT,
                    "warm JVMs: %,d no-op executions due an hour earlier run first, in the same two"
                        + " instances, and the clock runs from the end of those",
                    options.warmup)
                : "cold JVMs: from GO to both instances"));
    String header =
        String.format(
            "%-13s %-10s %-15s %5s %9s %8s %13s %10s %9s %10s %8s %6s%n",
            "scheduler",
            "database",
            "mode",
            "round",
            "exec/s",
            "seconds",
            "executed A+B",
            "xact/exec",
            "rollbacks",
            "CPU ms A+B",
            "enqueue",
            "load1");
    out.append(header).append("-".repeat(header.length() - 1)).append('\n');
    // Run interleaved, printed by scheduler and mode.
    Map<String, List<ThroughputRow>> byCombination = new LinkedHashMap<>();
    for (ThroughputRow r : throughputRows) {
      byCombination.computeIfAbsent(r.combination(), k -> new ArrayList<>()).add(r);
    }
    for (ThroughputRow r : byCombination.values().stream().flatMap(List::stream).toList()) {
      out.append(
          String.format(
              Locale.ROOT,
              "%-13s %-10s %-15s %5d %,9.0f %8.2f %13s %10s %9s %,10d %7.1fs %6s%n",
              r.scheduler(),
              r.db().label,
              r.mode(),
              r.round(),
              r.rate(),
              r.seconds(),
              r.executedA() + "+" + r.executedB(),
              r.xactCommit() < 0
                  ? "n/a"
                  : String.format(Locale.ROOT, "%.2f", r.xactCommit() / (double) r.executions()),
              r.xactRollback() < 0 ? "n/a" : Long.toString(r.xactRollback()),
              r.cpuMillis(),
              r.enqueueSeconds(),
              r.load1()));
    }
    out.append(
        "   exec/s: cold, from just before the GO to A (B's follows at once; both JVMs up,"
            + " connected, scheduler built), warm, from the first poll (every 20 ms) that finds no"
            + " warm-up execution left, over the executions still pending then, to the first poll"
            + " that finds none left; executed: executions begun by A and by B in that time (a sum"
            + " above the executions means some ran twice; warm, those begun during the warm-up's"
            + " last moments are not in it); xact/exec: PostgreSQL only, delta of"
            + " pg_stat_database.xact_commit over the whole round less the coordinator's own polls,"
            + " over every execution, warm-up included; it includes the instances' own connection"
            + " set-up and stop, about 60 transactions with 20 threads (0.006 per execution at"
            + " 10,000; measured with a single execution); CPU: both instance JVMs over the same"
            + " time as exec/s (to stop); enqueue: time to enqueue, not part of exec/s; load1: the"
            + " machine's 1-minute load average just before the GO\n");
    summary(out, byCombination);

    out.append(
        String.format(
            Locale.ROOT,
            "%n2. Takeover after kill -9: from SIGKILL of the instance running a long execution to"
                + " the other instance's start of it (side effect written at start)%n"));
    header =
        String.format(
            "%-13s %-10s %-15s %6s %8s %8s %8s %8s  %s%n",
            "scheduler",
            "database",
            "mode",
            "rounds",
            "min s",
            "median s",
            "max s",
            "bound s",
            "each s");
    out.append(header).append("-".repeat(header.length() - 1)).append('\n');
    for (TakeoverRow r : takeoverRows) {
      List<Double> sorted = r.seconds().stream().sorted().toList();
      out.append(
          String.format(
              Locale.ROOT,
              "%-13s %-10s %-15s %6d %8.2f %8.2f %8.2f %8.2f  %s%n",
              r.scheduler(),
              r.db().label,
              r.mode(),
              sorted.size(),
              sorted.getFirst(),
              sorted.get(sorted.size() / 2),
              sorted.getLast(),
              r.boundSeconds(),
              r.seconds().stream()
                  .map(x -> String.format(Locale.ROOT, "%.2f", x))
                  .collect(Collectors.joining(" / "))));
    }
    out.append(
        "   bound: the scheduler's own upper bound (BenchScheduler.takeoverBound); the kill falls"
            + " 1-2 s (random) after B started polling, at a random phase of A's heartbeat\n");

    out.append(
        String.format(
            Locale.ROOT,
            "%n3. Duplicated side effects after SIGSTOP/SIGCONT: executions of %.1f s (side effect"
                + " at start and at end) all running on A, A stopped for the scheduler's takeover"
                + " bound + 2 s while B polls, then continued%n",
            options.stallRun.toMillis() / 1e3));
    header =
        String.format(
            "%-13s %-10s %-15s %7s %7s %9s %10s %5s %12s%n",
            "scheduler",
            "database",
            "mode",
            "stalled",
            "stop s",
            "dup. end",
            "re-started",
            "lost",
            "ends A / B");
    out.append(header).append("-".repeat(header.length() - 1)).append('\n');
    for (StallRow r : stallRows) {
      out.append(
          String.format(
              Locale.ROOT,
              "%-13s %-10s %-15s %7d %7.1f %9d %10d %5d %12s%s%n",
              r.scheduler(),
              r.db().label,
              r.mode(),
              r.stalled(),
              r.stallSeconds(),
              r.duplicatedEnds(),
              r.reStarted(),
              r.lost(),
              r.endsByStalled() + " / " + r.endsByOther(),
              r.settled() ? "" : "  (not settled: executions still pending at the end)"));
    }
    out.append(
        "   dup. end: executions whose end side effect was written more than once; re-started:"
            + " whose start was; lost: never ended; ends A / B: end side effects written by the"
            + " stalled instance A and by B\n");
    return out.toString();
  }

  // ---------------------------------------------------------------------------------------------
  // Machine, versions, logging

  private static String machine() {
    return BenchMachine.describe()
        + "; coordinator JVM "
        + ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(a -> a.startsWith("-Xm"))
            .collect(Collectors.joining(" "));
  }

  private static String loadAverage() {
    return BenchMachine.loadAverage();
  }

  /** The version of a jar on the classpath, from its Maven pom.properties. */
  static String mavenVersion(String group, String artifact) {
    return BenchMachine.mavenVersion(group, artifact);
  }

  /**
   * Everything to standard error (an instance's standard output carries its answers), WARN and
   * above; db-scheduler's INFO too in an instance, where it tells of dead executions found.
   */
  private static void configureLogging(boolean instance) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return;
    }
    context.reset();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n");
    encoder.start();
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    root.setLevel(Level.WARN);
    if (instance) {
      context.getLogger("com.github.kagkarlsson").setLevel(Level.INFO);
    }
  }

  /**
   * Each combination's mean rate, and against db-scheduler's lock-and-fetch on the same database:
   * the ratio of the means, and each round's ratio to the same round of lock-and-fetch (the rounds
   * ran interleaved, so a round's two figures were measured a minute apart at most).
   */
  private static void summary(StringBuilder out, Map<String, List<ThroughputRow>> byCombination) {
    String header =
        String.format(
            "%-13s %-10s %-15s %11s %17s  %s%n",
            "scheduler",
            "database",
            "mode",
            "mean exec/s",
            "/ lock-and-fetch",
            "each round / lock-and-fetch's");
    out.append(String.format(Locale.ROOT, "%nThroughput summary (rounds ran interleaved)%n"))
        .append(header)
        .append("-".repeat(header.length() - 1))
        .append('\n');
    for (Map.Entry<String, List<ThroughputRow>> entry : byCombination.entrySet()) {
      List<ThroughputRow> rows = entry.getValue();
      ThroughputRow first = rows.getFirst();
      double mean = rows.stream().mapToDouble(ThroughputRow::rate).average().orElse(0);
      String yardstickKey = "db-scheduler " + first.db().label + " lock-and-fetch";
      Map<Integer, Double> yardstick = new LinkedHashMap<>();
      if (!entry.getKey().equals(yardstickKey)) {
        byCombination
            .getOrDefault(yardstickKey, List.of())
            .forEach(r -> yardstick.put(r.round(), r.rate()));
      }
      String ratio = "";
      String rounds = "";
      if (!yardstick.isEmpty()) {
        double base = yardstick.values().stream().mapToDouble(d -> d).average().orElse(0);
        ratio = ratio(mean, base);
        rounds =
            rows.stream()
                .filter(r -> yardstick.containsKey(r.round()))
                .map(r -> ratio(r.rate(), yardstick.get(r.round())))
                .collect(Collectors.joining(" / "));
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%-13s %-10s %-15s %,11.0f %17s  %s%n",
              first.scheduler(),
              first.db().label,
              first.mode(),
              mean,
              ratio,
              rounds));
    }
  }

  private static String ratio(double rate, double base) {
    return base > 0 ? String.format(Locale.ROOT, "%.2fx", rate / base) : "n/a";
  }

  private static void log(String format, Object... args) {
    System.err.println("[tasks] " + String.format(Locale.ROOT, format, args));
  }

  /** The environment of a run. */
  static final class Options {
    String command = envOr("HOTRANK_BENCH_COMMAND", "bench/tasks-vs-db-scheduler.sh");
    List<String> schedulers = list(envOr("HOTRANK_BENCH_TASKS_SCHEDULERS", "db-scheduler,hotrank"));
    List<BenchDb.Kind> dbs =
        list(envOr("HOTRANK_BENCH_TASKS_DBS", "postgresql,mariadb")).stream()
            .map(BenchDb.Kind::of)
            .toList();
    List<String> modes = list(envOr("HOTRANK_BENCH_TASKS_MODES", ""));
    int executions = Integer.parseInt(envOr("HOTRANK_BENCH_TASKS_EXECUTIONS", "10000"));
    int warmup = Integer.parseInt(envOr("HOTRANK_BENCH_TASKS_WARMUP", "50000"));
    int rounds = Integer.parseInt(envOr("HOTRANK_BENCH_TASKS_ROUNDS", "3"));
    int takeovers = Integer.parseInt(envOr("HOTRANK_BENCH_TASKS_TAKEOVERS", "5"));
    int stalled = Integer.parseInt(envOr("HOTRANK_BENCH_TASKS_STALLED", "20"));
    Duration stallRun = duration(envOr("HOTRANK_BENCH_TASKS_STALL_RUN", "6s"));
    Duration throughputTimeout = Duration.ofMinutes(5);
    InstanceSettings settings =
        new InstanceSettings(
            Integer.parseInt(envOr("HOTRANK_BENCH_TASKS_THREADS", "20")),
            duration(envOr("HOTRANK_BENCH_TASKS_POLLING", "100ms")),
            duration(envOr("HOTRANK_BENCH_TASKS_HEARTBEAT", "1s")),
            duration(envOr("HOTRANK_BENCH_TASKS_DEAD_AFTER", "3s")),
            Duration.ofSeconds(1));
    String instanceXmx = envOr("HOTRANK_BENCH_TASKS_INSTANCE_XMX", "256m");
    Path out = Path.of(envOr("HOTRANK_BENCH_TASKS_OUT", "hotrank-bench/target/tasks-bench.txt"));
    Path logs = Path.of(envOr("HOTRANK_BENCH_TASKS_LOGS", "hotrank-bench/target/tasks-bench-logs"));
    Path pidFile =
        envOr("HOTRANK_BENCH_TASKS_PIDFILE", "").isEmpty()
            ? null
            : Path.of(System.getenv("HOTRANK_BENCH_TASKS_PIDFILE"));

    static Options fromEnvironment() {
      Options o = new Options();
      if (o.executions < 1
          || o.rounds < 1
          || o.warmup < 0
          || o.takeovers < 0
          || o.stalled < 0
          || o.settings.threads() < 1) {
        throw new IllegalArgumentException(
            "HOTRANK_BENCH_TASKS_EXECUTIONS, _ROUNDS and _THREADS must be positive,"
                + " _TAKEOVERS and _STALLED not negative");
      }
      if (o.stalled > o.settings.threads()) {
        // The stalled executions must all be running on A when it is stopped.
        throw new IllegalArgumentException(
            "HOTRANK_BENCH_TASKS_STALLED may not exceed HOTRANK_BENCH_TASKS_THREADS");
      }
      return o;
    }

    /** "100ms", "6s", "1.5s" or ISO-8601 ("PT6S"). */
    static Duration duration(String value) {
      String v = value.strip().toLowerCase(Locale.ROOT);
      if (v.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      }
      if (v.endsWith("s") && !v.startsWith("pt")) {
        return Duration.ofNanos((long) (Double.parseDouble(v.substring(0, v.length() - 1)) * 1e9));
      }
      return Duration.parse(value.strip());
    }

    private static List<String> list(String value) {
      return Arrays.stream(value.split(",")).map(String::strip).filter(x -> !x.isEmpty()).toList();
    }

    private static String envOr(String name, String fallback) {
      String value = System.getenv(name);
      return value == null || value.isBlank() ? fallback : value;
    }
  }
}
