package io.hotrank.bench;

import ch.qos.logback.classic.Level;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hotrank.lock.InstanceId;
import io.hotrank.lock.JdbcLeaseStore;
import io.hotrank.lock.Lease;
import io.hotrank.lock.LeaseStore;
import io.hotrank.lock.RedisLeaseStore;
import io.hotrank.storage.SqlDialect;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.ValidateResult;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Lease acquire+release pairs per second, and the latency of a pair, of hotrank's two lease stores
 * next to a well-known peer on the same server, in one run: {@link RedisLeaseStore} vs Redisson's
 * {@link RLock} on the same Redis, and {@link JdbcLeaseStore} vs ShedLock's {@link
 * JdbcTemplateLockProvider} ({@code usingDbTime()}) on the same PostgreSQL database and HikariCP
 * pool. Every client is a platform thread looping on its own lease name (so a refused acquire is a
 * failure, never contention), for a warm-up then a measured period; the cells (store, system,
 * clients) run back to back, hotrank and its peer alternating which goes first from round to round.
 * Run by {@code bench/lease-vs-redisson.sh}, which builds, creates the database and runs this main.
 *
 * <p>Each system is set up the way an application would: hotrank's Redis store on a {@link
 * LettuceConnectionFactory} with Spring Boot's defaults (one shared, multiplexed connection;
 * command timeout 2 s as in hotrank's application.yml); Redisson as a single server with a
 * connection pool of {@code HOTRANK_BENCH_LEASE_POOL} connections, all opened up front (its default
 * is 64, 24 idle); both JDBC systems on one {@link JdbcTemplate} (query timeout 10 s, as hotrank's
 * application.yml) over one HikariCP pool of {@code HOTRANK_BENCH_LEASE_POOL} connections. Lease
 * time to live 30 s everywhere; ShedLock with lockAtLeastFor 0.
 *
 * <p>Environment: {@code HOTRANK_BENCH_REDIS_HOST} (127.0.0.1), {@code HOTRANK_BENCH_REDIS_PORT}
 * (6379), {@code HOTRANK_BENCH_PGHOST} (127.0.0.1), {@code HOTRANK_BENCH_PGPORT} (5432), {@code
 * HOTRANK_BENCH_PGUSER} (postgres), {@code PGPASSWORD}, {@code HOTRANK_BENCH_LEASE_PGDATABASE}
 * (hotrank_lease_bench; disposable: its schema is dropped when its Flyway history no longer matches
 * the application's migrations), {@code HOTRANK_BENCH_LEASE_WARMUP} (seconds per cell, 3), {@code
 * HOTRANK_BENCH_LEASE_MEASURE} (seconds per cell, 10), {@code HOTRANK_BENCH_LEASE_ROUNDS} (3),
 * {@code HOTRANK_BENCH_LEASE_CLIENTS} (1,16), {@code HOTRANK_BENCH_LEASE_POOL} (16), {@code
 * HOTRANK_BENCH_LEASE_STORES} (redis,jdbc), {@code HOTRANK_BENCH_LEASE_OUT} (the Markdown report
 * written at the end, hotrank-bench/target/lease-bench.md), {@code HOTRANK_BENCH_COMMAND} (the
 * command line recorded in the report).
 *
 * <p>Redis is never flushed: every key of the run carries a prefix of its own and is deleted at the
 * end. The database is the bench's own; its two lease tables are emptied at the start.
 */
public final class LeaseBench {

  static final Duration TTL = Duration.ofSeconds(30);
  static final String INSTANCE = "lease-bench";

  private LeaseBench() {}

  public static void main(String[] args) {
    int code;
    try {
      code = run();
    } catch (Throwable e) {
      e.printStackTrace();
      code = 1;
    }
    System.out.flush();
    // Bounded: whatever non-daemon thread a library left behind, the run ends here.
    System.exit(code);
  }

  /** Outcome of one acquire+release pair. */
  enum Outcome {
    OK,
    /** The acquire was refused although the name is this client's alone. */
    ACQUIRE_REFUSED,
    /** The acquire was granted but the release refused. */
    RELEASE_REFUSED
  }

  /** One system under test: makes a client per lease name. */
  interface Contender {
    String label();

    /** A client looping on {@code name}; called on the client's own thread. */
    Client client(String name);
  }

  /** One acquire+release pair on the client's name. */
  @FunctionalInterface
  interface Client {
    Outcome pair() throws Exception;
  }

  /** hotrank's {@link LeaseStore}: tryAcquire(name, 30 s), then release. */
  record HotrankContender(String label, LeaseStore store) implements Contender {
    @Override
    public Client client(String name) {
      return () -> {
        Optional<Lease> lease = store.tryAcquire(name, TTL);
        if (lease.isEmpty()) {
          return Outcome.ACQUIRE_REFUSED;
        }
        return store.release(lease.get()) ? Outcome.OK : Outcome.RELEASE_REFUSED;
      };
    }
  }

  /** Redisson: getLock(name), tryLock(0, 30, SECONDS), then unlock() on the same thread. */
  record RedissonContender(String label, RedissonClient redisson, String prefix)
      implements Contender {
    @Override
    public Client client(String name) {
      RLock lock = redisson.getLock(prefix + name);
      return () -> {
        if (!lock.tryLock(0, TTL.toSeconds(), TimeUnit.SECONDS)) {
          return Outcome.ACQUIRE_REFUSED;
        }
        try {
          lock.unlock();
          return Outcome.OK;
        } catch (IllegalMonitorStateException e) {
          return Outcome.RELEASE_REFUSED;
        }
      };
    }
  }

  /** ShedLock: lock(new LockConfiguration(now, name, 30 s, 0)), then unlock(). */
  record ShedLockContender(String label, JdbcTemplateLockProvider provider) implements Contender {
    @Override
    public Client client(String name) {
      Clock clock = Clock.systemUTC();
      return () -> {
        Optional<SimpleLock> lock =
            provider.lock(new LockConfiguration(clock.instant(), name, TTL, Duration.ZERO));
        if (lock.isEmpty()) {
          return Outcome.ACQUIRE_REFUSED;
        }
        lock.get().unlock();
        return Outcome.OK;
      };
    }
  }

  /** hotrank's store and its peer on the same server. */
  record Group(String key, String server, Contender hotrank, Contender peer) {}

  /** What one cell (contender, clients, round) measured. */
  record CellResult(
      long pairs,
      long nanos,
      long[] latencies,
      long acquireRefused,
      long releaseRefused,
      long errors,
      String firstError,
      long redisCommands,
      long redisScriptCalls,
      long clientCpuNanos,
      long redisCpuMicros) {}

  /** A contender at a client count, over all rounds. */
  static final class Aggregate {
    final String label;
    final int clients;
    long pairs;
    long nanos;
    long acquireRefused;
    long releaseRefused;
    long errors;
    String firstError;
    long redisCommands = -1;
    long redisScriptCalls = -1;
    long clientCpuNanos;
    long redisCpuMicros = -1;
    final List<long[]> latencies = new ArrayList<>();
    final List<Double> roundRates = new ArrayList<>();

    Aggregate(String label, int clients) {
      this.label = label;
      this.clients = clients;
    }

    void add(CellResult cell) {
      pairs += cell.pairs();
      nanos += cell.nanos();
      acquireRefused += cell.acquireRefused();
      releaseRefused += cell.releaseRefused();
      errors += cell.errors();
      if (firstError == null) {
        firstError = cell.firstError();
      }
      if (cell.redisCommands() >= 0) {
        redisCommands = Math.max(0, redisCommands) + cell.redisCommands();
        redisScriptCalls = Math.max(0, redisScriptCalls) + cell.redisScriptCalls();
        redisCpuMicros = Math.max(0, redisCpuMicros) + cell.redisCpuMicros();
      }
      clientCpuNanos += cell.clientCpuNanos();
      latencies.add(cell.latencies());
      roundRates.add(cell.pairs() / (cell.nanos() / 1e9));
    }

    double rate() {
      return pairs / (nanos / 1e9);
    }

    long failures() {
      return acquireRefused + releaseRefused + errors;
    }

    long[] sorted() {
      long[] all = latencies.stream().flatMapToLong(Arrays::stream).toArray();
      Arrays.sort(all);
      return all;
    }
  }

  private static int run() throws Exception {
    quietLogging();
    Options options = Options.fromEnvironment();
    String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    String redisPrefix = "hrbench-lease:" + run + ":";
    List<Group> groups = new ArrayList<>();
    List<AutoCloseable> closeables = new ArrayList<>();
    Map<String, String> versions = new LinkedHashMap<>();
    StringRedisTemplate redis = null;
    try {
      if (options.stores.contains("redis")) {
        LettuceConnectionFactory lettuce =
            new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(options.redisHost, options.redisPort),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        lettuce.afterPropertiesSet();
        lettuce.start();
        closeables.add(lettuce::destroy);
        redis = new StringRedisTemplate(lettuce);
        versions.put("Redis", info(redis, "server").getProperty("redis_version", "unknown"));

        Config config = new Config();
        config
            .useSingleServer()
            .setAddress("redis://" + options.redisHost + ":" + options.redisPort)
            .setConnectionPoolSize(options.pool)
            .setConnectionMinimumIdleSize(options.pool)
            .setTimeout(2000);
        RedissonClient redisson = Redisson.create(config);
        closeables.add(redisson::shutdown);
        groups.add(
            new Group(
                "redis",
                "Redis " + versions.get("Redis"),
                new HotrankContender(
                    "hotrank RedisLeaseStore",
                    new RedisLeaseStore(redis, redisPrefix, InstanceId.of(INSTANCE))),
                new RedissonContender("Redisson RLock", redisson, redisPrefix + "redisson:")));
      }
      if (options.stores.contains("jdbc")) {
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(options.jdbcUrl());
        hikari.setUsername(options.pgUser);
        if (options.pgPassword != null) {
          hikari.setPassword(options.pgPassword);
        }
        hikari.setMaximumPoolSize(options.pool);
        hikari.setMinimumIdle(options.pool);
        hikari.setConnectionTimeout(2000);
        hikari.setPoolName("lease-bench");
        HikariDataSource dataSource = new HikariDataSource(hikari);
        closeables.add(dataSource);
        SqlDialect dialect = SqlDialect.detect(dataSource);
        migrate(dataSource, dialect);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.setQueryTimeout(10);
        prepareTables(jdbc);
        versions.put(
            "PostgreSQL",
            String.valueOf(jdbc.queryForObject("SELECT version()", String.class))
                .replaceFirst(" \\(.*|,.*", "")
                .replaceFirst("^PostgreSQL ", ""));
        JdbcTemplateLockProvider shedLock =
            new JdbcTemplateLockProvider(
                JdbcTemplateLockProvider.Configuration.builder()
                    .withJdbcTemplate(jdbc)
                    .usingDbTime()
                    .build());
        groups.add(
            new Group(
                "jdbc",
                "PostgreSQL " + versions.get("PostgreSQL"),
                new HotrankContender(
                    "hotrank JdbcLeaseStore",
                    new JdbcLeaseStore(jdbc, dialect, InstanceId.of(INSTANCE))),
                new ShedLockContender("ShedLock JdbcTemplateLockProvider", shedLock)));
      }
      if (groups.isEmpty()) {
        System.err.println("HOTRANK_BENCH_LEASE_STORES names no store: " + options.stores);
        return 2;
      }
      versions.put("Redisson", BenchMachine.mavenVersion("org.redisson", "redisson"));
      versions.put(
          "ShedLock",
          BenchMachine.mavenVersion("net.javacrumbs.shedlock", "shedlock-provider-jdbc-template"));
      return measure(options, run, groups, redis, versions);
    } finally {
      if (redis != null) {
        deleteRedisKeys(redis, redisPrefix);
      }
      for (AutoCloseable closeable : closeables.reversed()) {
        try {
          closeable.close();
        } catch (Exception e) {
          System.err.println("Closing failed: " + e);
        }
      }
    }
  }

  private static int measure(
      Options options,
      String run,
      List<Group> groups,
      StringRedisTemplate redis,
      Map<String, String> versions)
      throws Exception {
    Map<String, Aggregate> aggregates = new LinkedHashMap<>();
    for (Group group : groups) {
      for (int clients : options.clients) {
        for (Contender contender : List.of(group.hotrank(), group.peer())) {
          aggregates.put(key(contender, clients), new Aggregate(contender.label(), clients));
        }
      }
    }
    String loadBefore = BenchMachine.loadAverage();
    Instant started = Instant.now();
    System.out.printf(
        Locale.ROOT,
        "%nLease bench %s: %d round(s) x clients %s x %s; per cell %.1f s warm-up + %.1f s"
            + " measured; pool %d%n%n",
        run,
        options.rounds,
        options.clients,
        groups.stream().map(Group::key).toList(),
        options.warmupNanos / 1e9,
        options.measureNanos / 1e9,
        options.pool);
    System.out.printf(
        Locale.ROOT,
        "%-5s %-34s %7s %10s %8s %8s %8s%n",
        "round",
        "system",
        "clients",
        "pairs/s",
        "p50 ms",
        "p99 ms",
        "failed");
    for (int round = 1; round <= options.rounds; round++) {
      for (int clients : options.clients) {
        for (Group group : groups) {
          List<Contender> order =
              round % 2 == 1
                  ? List.of(group.hotrank(), group.peer())
                  : List.of(group.peer(), group.hotrank());
          for (Contender contender : order) {
            String namePrefix =
                "bench-" + run + "-" + shortName(contender) + "-r" + round + "-c" + clients + "-";
            CellResult cell =
                runCell(
                    contender,
                    namePrefix,
                    clients,
                    options,
                    group.key().equals("redis") ? redis : null);
            aggregates.get(key(contender, clients)).add(cell);
            long[] sorted = cell.latencies().clone();
            Arrays.sort(sorted);
            System.out.printf(
                Locale.ROOT,
                "%-5d %-34s %7d %10.0f %8.3f %8.3f %8d%s%n",
                round,
                contender.label(),
                clients,
                cell.pairs() / (cell.nanos() / 1e9),
                percentile(sorted, 50) / 1e6,
                percentile(sorted, 99) / 1e6,
                cell.acquireRefused() + cell.releaseRefused() + cell.errors(),
                cell.firstError() == null ? "" : "  first error: " + cell.firstError());
          }
        }
      }
    }
    String load = loadBefore + " before, " + BenchMachine.loadAverage() + " after";
    String report = report(options, groups, aggregates, versions, started, load);
    System.out.println();
    System.out.println(report);
    Files.createDirectories(options.out.toAbsolutePath().getParent());
    Files.writeString(options.out, report, StandardCharsets.UTF_8);
    System.out.println("Report written to " + options.out);
    boolean anyFailure = aggregates.values().stream().anyMatch(a -> a.failures() > 0);
    return anyFailure ? 3 : 0;
  }

  /** Runs one cell: {@code clients} threads, each on its own name, warm-up then measured. */
  private static CellResult runCell(
      Contender contender,
      String namePrefix,
      int clients,
      Options options,
      StringRedisTemplate redis)
      throws InterruptedException {
    System.gc();
    Thread.sleep(300);
    CountDownLatch ready = new CountDownLatch(clients);
    CountDownLatch go = new CountDownLatch(1);
    long[] measureStart = new long[1];
    long[] measureEnd = new long[1];
    ClientLoop[] loops = new ClientLoop[clients];
    Thread[] threads = new Thread[clients];
    for (int i = 0; i < clients; i++) {
      ClientLoop loop = new ClientLoop(contender, namePrefix + i, ready, go);
      loops[i] = loop;
      threads[i] =
          Thread.ofPlatform()
              .name("lease-client-" + i)
              .start(() -> loop.run(measureStart, measureEnd));
    }
    ready.await();
    long now = System.nanoTime();
    measureStart[0] = now + options.warmupNanos;
    measureEnd[0] = measureStart[0] + options.measureNanos;
    // The counters of Redis commands are read when the measured period starts and ends.
    // So is this JVM's CPU time (the clients, the drivers' I/O threads, GC, JIT).
    long[] statsBefore = null;
    go.countDown();
    sleepUntil(measureStart[0]);
    long cpuBefore = processCpuNanos();
    if (redis != null) {
      statsBefore = redisCallCounts(redis);
    }
    sleepUntil(measureEnd[0]);
    long cpuAfter = processCpuNanos();
    long[] statsAfter = redis != null ? redisCallCounts(redis) : null;
    for (Thread thread : threads) {
      thread.join();
    }
    long pairs = 0;
    long acquireRefused = 0;
    long releaseRefused = 0;
    long errors = 0;
    String firstError = null;
    List<long[]> latencies = new ArrayList<>();
    for (ClientLoop loop : loops) {
      pairs += loop.count;
      acquireRefused += loop.acquireRefused;
      releaseRefused += loop.releaseRefused;
      errors += loop.errors;
      if (firstError == null) {
        firstError = loop.firstError;
      }
      latencies.add(Arrays.copyOf(loop.latencies, loop.count));
    }
    long[] all = latencies.stream().flatMapToLong(Arrays::stream).toArray();
    return new CellResult(
        pairs,
        measureEnd[0] - measureStart[0],
        all,
        acquireRefused,
        releaseRefused,
        errors,
        firstError,
        statsBefore == null ? -1 : statsAfter[1] - statsBefore[1],
        statsBefore == null ? -1 : statsAfter[0] - statsBefore[0],
        cpuAfter - cpuBefore,
        statsBefore == null ? -1 : statsAfter[2] - statsBefore[2]);
  }

  /** One client: its thread loops on pairs until the measured period ends. */
  static final class ClientLoop {
    final Contender contender;
    final String name;
    final CountDownLatch ready;
    final CountDownLatch go;
    long[] latencies = new long[1 << 14];
    int count;
    long acquireRefused;
    long releaseRefused;
    long errors;
    String firstError;

    ClientLoop(Contender contender, String name, CountDownLatch ready, CountDownLatch go) {
      this.contender = contender;
      this.name = name;
      this.ready = ready;
      this.go = go;
    }

    void run(long[] measureStart, long[] measureEnd) {
      Client client = contender.client(name);
      ready.countDown();
      try {
        go.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      long start = measureStart[0];
      long end = measureEnd[0];
      while (true) {
        long t0 = System.nanoTime();
        if (t0 - end >= 0) {
          return;
        }
        Outcome outcome;
        try {
          outcome = client.pair();
        } catch (Exception e) {
          outcome = null;
          if (t0 - start >= 0) {
            errors++;
            if (firstError == null) {
              firstError = e.toString();
            }
          }
        }
        long t1 = System.nanoTime();
        if (t0 - start < 0 || outcome == null) {
          continue;
        }
        switch (outcome) {
          case OK -> {
            if (count == latencies.length) {
              latencies = Arrays.copyOf(latencies, count * 2);
            }
            latencies[count++] = t1 - t0;
          }
          case ACQUIRE_REFUSED -> acquireRefused++;
          case RELEASE_REFUSED -> releaseRefused++;
        }
      }
    }
  }

  private static String report(
      Options options,
      List<Group> groups,
      Map<String, Aggregate> aggregates,
      Map<String, String> versions,
      Instant started,
      String load) {
    StringBuilder md = new StringBuilder();
    String date =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC)
            .format(started.truncatedTo(ChronoUnit.MINUTES));
    md.append("- Date: ").append(date).append("; machine: ").append(machine()).append('\n');
    md.append("- Command (from the repository root): `").append(options.command).append("`\n");
    md.append("- JVM: ")
        .append(System.getProperty("java.vm.name"))
        .append(' ')
        .append(Runtime.version())
        .append(", ")
        .append(
            ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-Xm"))
                .collect(Collectors.joining(" ")))
        .append('\n');
    md.append("- Versions: ")
        .append(
            versions.entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", ")))
        .append('\n');
    md.append(
        String.format(
            Locale.ROOT,
            "- Cells: %d round(s) x clients %s; per cell %.0f s warm-up + %.0f s measured;"
                + " hotrank and its peer alternate which goes first from round to round;"
                + " figures below pool the rounds (pairs over measured time, percentiles"
                + " over every pair)%n",
            options.rounds,
            options.clients,
            options.warmupNanos / 1e9,
            options.measureNanos / 1e9));
    md.append("- Load average (1/5/15 min): ").append(load).append("\n\n");
    md.append(
        "| server | system | clients | pairs/s | p50 ms | p99 ms | failures | pairs/s per round"
            + " | bench JVM CPU µs/pair | hotrank / peer, pairs/s |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|---|---:|---:|\n");
    for (Group group : groups) {
      for (int clients : options.clients) {
        Aggregate hotrank = aggregates.get(key(group.hotrank(), clients));
        Aggregate peer = aggregates.get(key(group.peer(), clients));
        for (Aggregate a : List.of(hotrank, peer)) {
          long[] sorted = a.sorted();
          md.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %s | %d | %,.0f | %.3f | %.3f | %d | %s | %.0f | %s |%n",
                  group.server(),
                  a.label,
                  clients,
                  a.rate(),
                  percentile(sorted, 50) / 1e6,
                  percentile(sorted, 99) / 1e6,
                  a.failures(),
                  a.roundRates.stream()
                      .map(r -> String.format(Locale.ROOT, "%,.0f", r))
                      .collect(Collectors.joining(" / ")),
                  a.clientCpuNanos / 1e3 / Math.max(1, a.pairs),
                  a == hotrank
                      ? String.format(Locale.ROOT, "**%.2fx**", hotrank.rate() / peer.rate())
                      : ""));
        }
      }
    }
    md.append(
        "\n- Bench JVM CPU: this process's CPU time over the measured periods (client threads,"
            + " the drivers' I/O threads, pool housekeeping, GC, JIT) divided by the pairs\n");
    List<String> redisCounts = new ArrayList<>();
    for (Aggregate a : aggregates.values()) {
      if (a.redisCommands >= 0 && a.pairs > 0) {
        redisCounts.add(
            String.format(
                Locale.ROOT,
                "%s at %d: %.2f script calls, %.2f commands, %.0f µs of Redis CPU",
                a.label,
                a.clients,
                a.redisScriptCalls / (double) a.pairs,
                a.redisCommands / (double) a.pairs,
                a.redisCpuMicros / (double) a.pairs));
      }
    }
    if (!redisCounts.isEmpty()) {
      md.append("- Redis work per pair (`INFO commandstats` deltas over the measured periods,")
          .append(" EVAL/EVALSHA calls and all commands including those run inside scripts;")
          .append(" Redis CPU from `INFO cpu`, user + system;")
          .append(" the server is shared, so other clients' commands may add a little): ")
          .append(String.join("; ", redisCounts))
          .append('\n');
    }
    List<String> failures =
        aggregates.values().stream()
            .filter(a -> a.failures() > 0)
            .map(
                a ->
                    String.format(
                        Locale.ROOT,
                        "%s at %d clients: %d acquires refused, %d releases refused, %d errors%s",
                        a.label,
                        a.clients,
                        a.acquireRefused,
                        a.releaseRefused,
                        a.errors,
                        a.firstError == null ? "" : " (first: " + a.firstError + ")"))
            .toList();
    md.append("- Failures: ")
        .append(failures.isEmpty() ? "none" : String.join("; ", failures))
        .append('\n');
    return md.toString();
  }

  private static String key(Contender contender, int clients) {
    return contender.label() + "@" + clients;
  }

  private static String shortName(Contender contender) {
    return switch (contender) {
      case HotrankContender h -> h.store().kind();
      case RedissonContender r -> "redisson";
      case ShedLockContender s -> "shedlock";
      default -> "x";
    };
  }

  /** The p-th percentile (nearest rank) of sorted nanos; 0 if none. */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
  }

  /** Migrates the bench database, recreating its schema if the history no longer matches. */
  private static void migrate(HikariDataSource dataSource, SqlDialect dialect) {
    Flyway flyway = dialect.flyway(dataSource).load();
    ValidateResult result =
        Flyway.configure()
            .configuration(flyway.getConfiguration())
            .ignoreMigrationPatterns("*:pending")
            .load()
            .validateWithResult();
    if (!result.validationSuccessful) {
      System.out.println(
          "The bench database's schema does not match the application's migrations ("
              + result.getAllErrorMessages().strip()
              + "); dropping it and migrating from scratch");
      Flyway.configure()
          .configuration(flyway.getConfiguration())
          .cleanDisabled(false)
          .load()
          .clean();
    }
    flyway.migrate();
  }

  /** ShedLock's table (its documented PostgreSQL DDL); both lease tables emptied. */
  private static void prepareTables(JdbcTemplate jdbc) {
    jdbc.execute(
        "CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT"
            + " NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY"
            + " (name))");
    jdbc.execute("TRUNCATE shedlock, hr_lease");
  }

  /**
   * {EVAL + EVALSHA calls, all calls} from INFO commandstats, and the server's CPU time (user +
   * system, all its threads) in microseconds from INFO cpu.
   */
  private static long[] redisCallCounts(StringRedisTemplate redis) {
    Properties cpu = info(redis, "cpu");
    long cpuMicros =
        Math.round(
            (Double.parseDouble(cpu.getProperty("used_cpu_user", "0"))
                    + Double.parseDouble(cpu.getProperty("used_cpu_sys", "0")))
                * 1e6);
    Properties stats = info(redis, "commandstats");
    long scripts = 0;
    long all = 0;
    for (String name : stats.stringPropertyNames()) {
      if (!name.startsWith("cmdstat_")) {
        continue;
      }
      long calls = 0;
      for (String field : stats.getProperty(name).split(",")) {
        if (field.startsWith("calls=")) {
          calls = Long.parseLong(field.substring("calls=".length()));
        }
      }
      all += calls;
      if (name.equals("cmdstat_eval") || name.equals("cmdstat_evalsha")) {
        scripts += calls;
      }
    }
    return new long[] {scripts, all, cpuMicros};
  }

  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : -1;
  }

  private static Properties info(StringRedisTemplate redis, String section) {
    Properties properties =
        redis.execute((RedisCallback<Properties>) c -> c.serverCommands().info(section));
    return properties == null ? new Properties() : properties;
  }

  /** Deletes the run's keys (SCAN, never a flush); Redisson's latch keys expire by themselves. */
  private static void deleteRedisKeys(StringRedisTemplate redis, String prefix) {
    try {
      List<String> keys = new ArrayList<>();
      redis.execute(
          (RedisCallback<Void>)
              connection -> {
                scan(connection, "*" + prefix + "*", keys);
                return null;
              });
      for (int i = 0; i < keys.size(); i += 500) {
        redis.delete(keys.subList(i, Math.min(keys.size(), i + 500)));
      }
      System.out.println("Deleted " + keys.size() + " Redis keys matching *" + prefix + "*");
    } catch (RuntimeException e) {
      System.err.println("Could not delete the bench's Redis keys (" + prefix + "*): " + e);
    }
  }

  private static void scan(RedisConnection connection, String pattern, List<String> keys) {
    try (Cursor<byte[]> cursor =
        connection
            .keyCommands()
            .scan(ScanOptions.scanOptions().match(pattern).count(1000).build())) {
      cursor.forEachRemaining(k -> keys.add(new String(k, StandardCharsets.UTF_8)));
    }
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  private static void quietLogging() {
    if (LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
      context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
    }
  }

  private static String machine() {
    return BenchMachine.describe()
        + "; clients, Redis and PostgreSQL on the same machine over TCP (127.0.0.1)";
  }

  /** The environment of a run. */
  static final class Options {
    String command = envOr("HOTRANK_BENCH_COMMAND", "bench/lease-vs-redisson.sh");
    String redisHost = envOr("HOTRANK_BENCH_REDIS_HOST", "127.0.0.1");
    int redisPort = Integer.parseInt(envOr("HOTRANK_BENCH_REDIS_PORT", "6379"));
    String pgHost = envOr("HOTRANK_BENCH_PGHOST", "127.0.0.1");
    String pgPort = envOr("HOTRANK_BENCH_PGPORT", "5432");
    String pgDatabase = envOr("HOTRANK_BENCH_LEASE_PGDATABASE", "hotrank_lease_bench");
    String pgUser = envOr("HOTRANK_BENCH_PGUSER", "postgres");
    String pgPassword = blankToNull(System.getenv("PGPASSWORD"));
    long warmupNanos = seconds(envOr("HOTRANK_BENCH_LEASE_WARMUP", "3"));
    long measureNanos = seconds(envOr("HOTRANK_BENCH_LEASE_MEASURE", "10"));
    int rounds = Integer.parseInt(envOr("HOTRANK_BENCH_LEASE_ROUNDS", "3"));
    List<Integer> clients =
        Arrays.stream(envOr("HOTRANK_BENCH_LEASE_CLIENTS", "1,16").split(","))
            .map(String::strip)
            .map(Integer::valueOf)
            .toList();
    int pool = Integer.parseInt(envOr("HOTRANK_BENCH_LEASE_POOL", "16"));
    List<String> stores =
        Arrays.stream(envOr("HOTRANK_BENCH_LEASE_STORES", "redis,jdbc").split(","))
            .map(String::strip)
            .toList();
    Path out = Path.of(envOr("HOTRANK_BENCH_LEASE_OUT", "hotrank-bench/target/lease-bench.md"));

    static Options fromEnvironment() {
      Options o = new Options();
      if (o.rounds < 1
          || o.pool < 1
          || o.measureNanos <= 0
          || o.warmupNanos < 0
          || o.clients.stream().anyMatch(c -> c < 1)) {
        throw new IllegalArgumentException(
            "HOTRANK_BENCH_LEASE_ROUNDS, _POOL, _MEASURE and every _CLIENTS entry must be"
                + " positive, _WARMUP not negative");
      }
      return o;
    }

    String jdbcUrl() {
      return "jdbc:postgresql://" + pgHost + ":" + pgPort + "/" + pgDatabase;
    }

    private static long seconds(String value) {
      return (long) (Double.parseDouble(value.replaceFirst("s$", "")) * 1e9);
    }

    private static String envOr(String name, String fallback) {
      String value = blankToNull(System.getenv(name));
      return value == null ? fallback : value;
    }

    private static String blankToNull(String value) {
      return value == null || value.isBlank() ? null : value;
    }
  }
}
