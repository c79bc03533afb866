package io.hotrank.lock;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.hotrank.storage.SqlDialect;
import io.hotrank.support.SharedRedis;
import io.hotrank.support.TestDatabase;
import io.hotrank.support.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Mutual exclusion across processes: this JVM and a second one hammer one lease name, four threads
 * each, and record every holder's entry and exit in one shared file (see {@link LeaseHammer}). The
 * record must alternate entry and exit of the same holder, with fencing tokens strictly increasing,
 * and both processes must have held the lease.
 */
@Tag("process")
@Isolated // its assertions bound a failover, a lease or a cycle in seconds: run alone
class LeasesProcessTest {

  private static final long MILLIS = 3000;

  @TempDir Path dir;

  @Test
  void twoProcessesOnRedis_neverHoldALeaseAtOnce() throws Exception {
    try (SharedRedis redis = new SharedRedis()) {
      String url = redis.url();
      String name = "hammer-" + UUID.randomUUID();
      Path record = dir.resolve("redis.record");
      Process other = child("redis", url, "-", redis.prefix(), name, record);
      int here =
          LeaseHammer.hammer(
              new RedisLeaseStore(redis.template(), redis.prefix(), InstanceId.of("parent")),
              name,
              record,
              MILLIS,
              "parent",
              4);
      check(other, here, record);
    }
  }

  @Test
  @EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_POSTGRES_URL", matches = ".+")
  void twoProcessesOnPostgres_neverHoldALeaseAtOnce() throws Exception {
    String url = TestDatabase.POSTGRES.url();
    String user = TestDatabase.POSTGRES.user();
    TestEngines.exercised(TestDatabase.POSTGRES.engine());
    try (HikariDataSource dataSource = LeaseHammer.dataSource(url, user)) {
      SqlDialect dialect = SqlDialect.detect(dataSource);
      dialect.flyway(dataSource).load().migrate();
      String name = "hammer-" + UUID.randomUUID();
      Path record = dir.resolve("jdbc.record");
      Process other = child("jdbc", url, user, "-", name, record);
      int here =
          LeaseHammer.hammer(
              new JdbcLeaseStore(new JdbcTemplate(dataSource), dialect, InstanceId.of("parent")),
              name,
              record,
              MILLIS,
              "parent",
              4);
      check(other, here, record);
      new JdbcTemplate(dataSource).update("DELETE FROM hr_lease WHERE name = ?", name);
    }
  }

  private static Process child(
      String kind, String url, String user, String prefix, String name, Path record)
      throws Exception {
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx128m",
            "-cp",
            classpath,
            LeaseHammer.class.getName(),
            kind,
            url,
            user,
            prefix,
            name,
            record.toString(),
            Long.toString(MILLIS + 1000),
            "child")
        .redirectErrorStream(true)
        .redirectOutput(record.resolveSibling(record.getFileName() + ".log").toFile())
        .start();
  }

  private static void check(Process other, int here, Path record) throws Exception {
    assertThat(other.waitFor(60, TimeUnit.SECONDS)).as("the other process ends").isTrue();
    assertThat(other.exitValue())
        .as(
            Files.readString(
                record.resolveSibling(record.getFileName() + ".log"),
                java.nio.charset.StandardCharsets.UTF_8))
        .isZero();
    List<String> lines = Files.readAllLines(record);
    assertThat(lines).noneMatch(l -> l.startsWith("lost "));
    assertThat(lines.size() % 2).isZero();
    long previousFence = 0;
    int parent = 0;
    int child = 0;
    List<String> problems = new ArrayList<>();
    for (int i = 0; i + 1 < lines.size(); i += 2) {
      String[] enter = lines.get(i).split(" ");
      String[] exit = lines.get(i + 1).split(" ");
      if (!enter[0].equals("enter")
          || !exit[0].equals("exit")
          || !enter[1].equals(exit[1])
          || !enter[2].equals(exit[2])) {
        problems.add("line " + i + ": " + lines.get(i) + " / " + lines.get(i + 1));
        continue;
      }
      long fence = Long.parseLong(enter[2]);
      if (fence <= previousFence) {
        problems.add("line " + i + ": fence " + fence + " after " + previousFence);
      }
      previousFence = fence;
      if (enter[1].startsWith("parent")) {
        parent++;
      } else {
        child++;
      }
    }
    assertThat(problems).as("overlapping holders or fences out of order").isEmpty();
    assertThat(parent).isEqualTo(here).isGreaterThan(10);
    assertThat(child).as("grants of the other process").isGreaterThan(10);
  }
}
