package io.hotrank.bench;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.hotrank.limit.GcraLimiter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Rate limit decisions on one hot key from many concurrent clients, on the same Redis in the same
 * run: hotrank's {@link GcraLimiter} (one script call per decision) against Bucket4j's Lettuce
 * backend (compare-and-swap: read the bucket, then a script that writes it only if unchanged,
 * retried on conflict). Each cell is one system and one quota; each client is a thread making
 * decisions back to back for the cell's time, all on one key. Reported: decisions per second,
 * p50/p99 latency of a decision, the share admitted, script calls per decision (hotrank: one call,
 * one round trip; Bucket4j: one per compare-and-swap attempt, each after a GET) and all Redis
 * commands per decision, those scripts run inside Redis included (from INFO commandstats). Prints a
 * Markdown table; bench/limiter-vs-bucket4j.sh runs it.
 *
 * <p>Configured by environment: HOTRANK_BENCH_LIMIT_CLIENTS (64), HOTRANK_BENCH_LIMIT_QUOTAS (per
 * second, "1000000,1000"), HOTRANK_BENCH_LIMIT_WARMUP (s, 3), HOTRANK_BENCH_LIMIT_MEASURE (s, 10),
 * HOTRANK_BENCH_LIMIT_ROUNDS (3), HOTRANK_BENCH_REDIS_HOST (127.0.0.1), HOTRANK_BENCH_REDIS_PORT
 * (6379).
 */
public final class LimiterBench {

  /** One system under test: decides one request on the cell's key. */
  private interface Contender {
    boolean decide();
  }

  private record Cell(
      String system,
      long quota,
      long decisions,
      long admitted,
      long failures,
      double seconds,
      long[] sortedNanos,
      double commandsPerDecision,
      double scriptsPerDecision) {}

  private LimiterBench() {}

  public static void main(String[] args) throws Exception {
    int clients = intEnv("HOTRANK_BENCH_LIMIT_CLIENTS", 64);
    long[] quotas =
        Arrays.stream(env("HOTRANK_BENCH_LIMIT_QUOTAS", "1000000,1000").split(","))
            .mapToLong(Long::parseLong)
            .toArray();
    int warmup = intEnv("HOTRANK_BENCH_LIMIT_WARMUP", 3);
    int measure = intEnv("HOTRANK_BENCH_LIMIT_MEASURE", 10);
    int rounds = intEnv("HOTRANK_BENCH_LIMIT_ROUNDS", 3);
    String host = env("HOTRANK_BENCH_REDIS_HOST", "127.0.0.1");
    int port = intEnv("HOTRANK_BENCH_REDIS_PORT", 6379);
    String run = UUID.randomUUID().toString().substring(0, 8);
    String prefix = "hrbench-limit:" + run + ":";

    LettuceConnectionFactory lettuce =
        new LettuceConnectionFactory(
            new RedisStandaloneConfiguration(host, port),
            LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
    lettuce.afterPropertiesSet();
    lettuce.start();
    StringRedisTemplate redis = new StringRedisTemplate(lettuce);
    GcraLimiter gcra = new GcraLimiter(redis, prefix);
    RedisClient client = RedisClient.create(RedisURI.create(host, port));
    ProxyManager<byte[]> buckets =
        Bucket4jLettuce.casBasedBuilder(client)
            .expirationAfterWrite(
                ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                    Duration.ofSeconds(10)))
            .build();

    String redisVersion = info(redis, "server").getProperty("redis_version", "unknown");
    String loadBefore = BenchMachine.loadAverage();
    List<Cell> cells = new ArrayList<>();
    try {
      for (int round = 1; round <= rounds; round++) {
        for (long quota : quotas) {
          for (String system : List.of("hotrank", "bucket4j")) {
            String key = "r" + round + "-q" + quota + "-" + system;
            Contender contender;
            if (system.equals("hotrank")) {
              GcraLimiter.Policy policy =
                  new GcraLimiter.Policy("bench", quota, Duration.ofSeconds(1));
              contender = () -> gcra.decide(policy, key).allowed();
            } else {
              BucketConfiguration configuration =
                  BucketConfiguration.builder()
                      .addLimit(l -> l.capacity(quota).refillGreedy(quota, Duration.ofSeconds(1)))
                      .build();
              var bucket =
                  buckets
                      .builder()
                      .build((prefix + key).getBytes(StandardCharsets.UTF_8), () -> configuration);
              contender = () -> bucket.tryConsume(1);
            }
            cells.add(measure(system, quota, contender, clients, warmup, measure, redis));
            System.err.printf(Locale.ROOT, "round %d %s%n", round, describe(cells.getLast()));
          }
        }
      }
    } finally {
      deleteKeys(redis, prefix);
      client.shutdown();
      lettuce.destroy();
    }
    System.out.println(
        report(cells, quotas, clients, warmup, measure, rounds, redisVersion, loadBefore));
  }

  private static Cell measure(
      String system,
      long quota,
      Contender contender,
      int clients,
      int warmupSeconds,
      int measureSeconds,
      StringRedisTemplate redis)
      throws Exception {
    runFor(contender, clients, warmupSeconds, false);
    long[] before = commandCalls(redis);
    long[][] results = runFor(contender, clients, measureSeconds, true);
    long[] after = commandCalls(redis);
    // The INFO call itself counts once.
    long commands = after[0] - before[0] - 1;
    long scripts = after[1] - before[1];
    long decisions = 0;
    long admitted = 0;
    long failures = 0;
    List<long[]> latencies = new ArrayList<>();
    for (long[] r : results) {
      decisions += r[0];
      admitted += r[1];
      failures += r[2];
      latencies.add(Arrays.copyOfRange(r, 3, 3 + (int) (r[0] + r[2])));
    }
    long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    return new Cell(
        system,
        quota,
        decisions,
        admitted,
        failures,
        measureSeconds,
        all,
        decisions == 0 ? 0 : (double) commands / decisions,
        decisions == 0 ? 0 : (double) scripts / decisions);
  }

  /**
   * Runs every client for {@code seconds}; each returns {decisions, admitted, failures, latency
   * nanos...}.
   */
  private static long[][] runFor(Contender contender, int clients, int seconds, boolean record)
      throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch start = new CountDownLatch(1);
    long[][] results = new long[clients][];
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int me = c;
      Thread thread =
          Thread.ofPlatform()
              .start(
                  () -> {
                    long[] out = new long[3 + 1024];
                    int n = 0;
                    try {
                      start.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                      return;
                    }
                    while (!stop.get()) {
                      long t0 = System.nanoTime();
                      try {
                        if (contender.decide()) {
                          out[1]++;
                        }
                        out[0]++;
                      } catch (RuntimeException e) {
                        out[2]++;
                      }
                      if (record) {
                        if (3 + n == out.length) {
                          out = Arrays.copyOf(out, out.length * 2);
                        }
                        out[3 + n++] = System.nanoTime() - t0;
                      }
                    }
                    results[me] = out;
                  });
      threads.add(thread);
    }
    start.countDown();
    Thread.sleep(seconds * 1000L);
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    if (!record) {
      for (long[] r : results) {
        r[0] = 0;
        r[2] = 0;
      }
    }
    return results;
  }

  private static String describe(Cell c) {
    return String.format(
        Locale.ROOT,
        "%s quota %d/s: %.0f decisions/s, p50 %.2f ms, p99 %.2f ms, %.1f%% admitted, %.2f"
            + " script calls and %.2f commands per decision, %d failures",
        c.system(),
        c.quota(),
        c.decisions() / c.seconds(),
        LeaseBench.percentile(c.sortedNanos(), 50) / 1e6,
        LeaseBench.percentile(c.sortedNanos(), 99) / 1e6,
        c.decisions() == 0 ? 0 : 100.0 * c.admitted() / c.decisions(),
        c.scriptsPerDecision(),
        c.commandsPerDecision(),
        c.failures());
  }

  private static String report(
      List<Cell> cells,
      long[] quotas,
      int clients,
      int warmup,
      int measure,
      int rounds,
      String redisVersion,
      String loadBefore) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "One hot key, %d clients (threads, each deciding back to back), %d s warm-up and %d s"
                + " measured per cell, %d rounds pooled. Redis %s; Bucket4j %s (Lettuce backend,"
                + " compare-and-swap); %s; load %s before, %s after.%n%n",
            clients,
            warmup,
            measure,
            rounds,
            redisVersion,
            BenchMachine.mavenVersion("com.bucket4j", "bucket4j_jdk17-lettuce"),
            BenchMachine.describe(),
            loadBefore,
            BenchMachine.loadAverage()));
    out.append(
        "| quota/s | system | decisions/s | p50 ms | p99 ms | admitted | script calls per"
            + " decision | Redis commands per decision | failures | decisions/s per round |\n");
    out.append("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (long quota : quotas) {
      double[] rates = new double[2];
      int i = 0;
      for (String system : List.of("hotrank", "bucket4j")) {
        List<Cell> mine =
            cells.stream().filter(c -> c.quota() == quota && c.system().equals(system)).toList();
        long decisions = mine.stream().mapToLong(Cell::decisions).sum();
        long admitted = mine.stream().mapToLong(Cell::admitted).sum();
        long failures = mine.stream().mapToLong(Cell::failures).sum();
        double seconds = mine.stream().mapToDouble(Cell::seconds).sum();
        long[] sorted =
            mine.stream().flatMapToLong(c -> Arrays.stream(c.sortedNanos())).sorted().toArray();
        double commands =
            mine.stream().mapToDouble(c -> c.commandsPerDecision() * c.decisions()).sum()
                / Math.max(1, decisions);
        double scripts =
            mine.stream().mapToDouble(c -> c.scriptsPerDecision() * c.decisions()).sum()
                / Math.max(1, decisions);
        rates[i++] = decisions / seconds;
        out.append(
            String.format(
                Locale.ROOT,
                "| %d | %s | %.0f | %.2f | %.2f | %.1f %% | %.2f | %.2f | %d | %s |%n",
                quota,
                system,
                decisions / seconds,
                LeaseBench.percentile(sorted, 50) / 1e6,
                LeaseBench.percentile(sorted, 99) / 1e6,
                decisions == 0 ? 0 : 100.0 * admitted / decisions,
                scripts,
                commands,
                failures,
                String.join(
                    ", ",
                    mine.stream()
                        .map(c -> String.format(Locale.ROOT, "%.0f", c.decisions() / c.seconds()))
                        .toList())));
      }
      out.append(
          String.format(
              Locale.ROOT,
              "| %d | **hotrank / bucket4j** | **%.2fx** | | | | | | | |%n",
              quota,
              rates[1] == 0 ? Double.POSITIVE_INFINITY : rates[0] / rates[1]));
    }
    return out.toString();
  }

  /**
   * {all calls, EVAL + EVALSHA calls} from INFO commandstats. All calls include what scripts call
   * inside Redis (no round trip); each script call is one round trip.
   */
  private static long[] commandCalls(StringRedisTemplate redis) {
    Properties stats = info(redis, "commandstats");
    long all = 0;
    long scripts = 0;
    for (String name : stats.stringPropertyNames()) {
      if (name.startsWith("cmdstat_")) {
        for (String field : stats.getProperty(name).split(",")) {
          if (field.startsWith("calls=")) {
            long calls = Long.parseLong(field.substring("calls=".length()));
            all += calls;
            if (name.equals("cmdstat_eval") || name.equals("cmdstat_evalsha")) {
              scripts += calls;
            }
          }
        }
      }
    }
    return new long[] {all, scripts};
  }

  private static Properties info(StringRedisTemplate redis, String section) {
    Properties properties =
        redis.execute((RedisCallback<Properties>) c -> c.serverCommands().info(section));
    return properties == null ? new Properties() : properties;
  }

  private static void deleteKeys(StringRedisTemplate redis, String prefix) {
    var keys = redis.keys(prefix + "*");
    if (keys != null && !keys.isEmpty()) {
      redis.delete(keys);
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  private static int intEnv(String name, int fallback) {
    return Integer.parseInt(env(name, Integer.toString(fallback)));
  }
}
