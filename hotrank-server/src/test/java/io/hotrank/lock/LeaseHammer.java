package io.hotrank.lock;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hotrank.storage.SqlDialect;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Hammers one lease name from several threads and records every holder's entry and exit in a file
 * shared with other processes doing the same: the record of {@link LeasesProcessTest}. Each line is
 * appended by one {@code write} in append mode, so lines of different processes never mix; entries
 * and exits are written while the lease is held, so with mutual exclusion the file is a strict
 * alternation of "enter" and "exit" lines of the same holder.
 *
 * <p>Run as a process: {@code LeaseHammer <redis|jdbc> <url> <user> <key prefix> <name> <record
 * file> <milliseconds> <who>}.
 */
public final class LeaseHammer {

  private LeaseHammer() {}

  public static void main(String[] args) throws Exception {
    String kind = args[0];
    if (kind.equals("redis")) {
      URI uri = URI.create(args[1]);
      LettuceConnectionFactory connections =
          new LettuceConnectionFactory(
              new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
      connections.afterPropertiesSet();
      connections.start();
      try {
        LeaseStore store =
            new RedisLeaseStore(
                new StringRedisTemplate(connections), args[3], InstanceId.of(args[7]));
        hammer(store, args[4], Path.of(args[5]), Long.parseLong(args[6]), args[7], 4);
      } finally {
        connections.destroy();
      }
    } else {
      try (HikariDataSource dataSource = dataSource(args[1], args[2])) {
        LeaseStore store =
            new JdbcLeaseStore(
                new JdbcTemplate(dataSource),
                SqlDialect.detect(dataSource),
                InstanceId.of(args[7]));
        hammer(store, args[4], Path.of(args[5]), Long.parseLong(args[6]), args[7], 4);
      }
    }
  }

  static HikariDataSource dataSource(String url, String user) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername(user);
    config.setMaximumPoolSize(6);
    return new HikariDataSource(config);
  }

  /**
   * Acquires and releases the lease in a loop on {@code threads} threads for {@code millis},
   * recording each grant; returns the number of grants.
   */
  static int hammer(
      LeaseStore store, String name, Path record, long millis, String who, int threads)
      throws Exception {
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String holder = who + "-" + t;
        done.add(
            pool.submit(
                () -> {
                  int grants = 0;
                  while (System.nanoTime() < until) {
                    Optional<Lease> lease = store.tryAcquire(name, Duration.ofSeconds(10));
                    if (lease.isEmpty()) {
                      continue;
                    }
                    append(record, "enter " + holder + " " + lease.get().fence() + "\n");
                    append(record, "exit " + holder + " " + lease.get().fence() + "\n");
                    if (!store.release(lease.get())) {
                      append(record, "lost " + holder + " " + lease.get().fence() + "\n");
                    }
                    grants++;
                  }
                  return grants;
                }));
      }
      int grants = 0;
      for (Future<Integer> f : done) {
        grants += f.get(millis + 60_000, TimeUnit.MILLISECONDS);
      }
      return grants;
    } finally {
      pool.shutdownNow();
    }
  }

  private static void append(Path record, String line) {
    try {
      Files.write(
          record,
          line.getBytes(StandardCharsets.UTF_8),
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND,
          StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
