package io.hotrank.support;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListSet;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Which real engines the integration tests run against, from the environment, and a report of which
 * of them actually ran, printed when the test plan ends (registered as a JUnit listener).
 *
 * <ul>
 *   <li>{@code HOTRANK_TEST_REDIS_CLUSTER}: the nodes of a Redis Cluster on which the Redis tests
 *       run instead (CI runs them once on a single node and once on a three-master cluster)
 *   <li>{@code HOTRANK_TEST_REDIS_URL}: a Redis to share (keys under a random prefix, never
 *       flushed); unset: each Spring context starts the embedded Redis binary
 *   <li>{@code HOTRANK_TEST_MYSQL_URL} (+ {@code _USER}, {@code _PASSWORD}; default root, empty)
 *   <li>{@code HOTRANK_TEST_POSTGRES_URL} (+ {@code _USER}, {@code _PASSWORD}; default postgres)
 * </ul>
 */
public final class TestEngines implements TestExecutionListener {

  private static final Set<String> EXERCISED = new ConcurrentSkipListSet<>();

  /** Notes that a test class ran against an engine, for the end-of-run report. */
  public static void exercised(String engine) {
    EXERCISED.add(engine);
  }

  public static Optional<String> env(String name) {
    return Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
  }

  /** How the integration tests reach Redis, for the report. */
  public static String redisDescription() {
    return redisCluster()
        .map(nodes -> "Redis Cluster at " + nodes)
        .or(() -> env("HOTRANK_TEST_REDIS_URL").map(url -> "Redis at " + url))
        .orElse("embedded Redis binary");
  }

  /**
   * The nodes of the Redis Cluster the Redis tests run on instead of a single node, when {@code
   * HOTRANK_TEST_REDIS_CLUSTER} names them ({@code host:port,host:port,...}).
   */
  public static Optional<String> redisCluster() {
    return env("HOTRANK_TEST_REDIS_CLUSTER");
  }

  /**
   * Points a Spring context at the test cluster when one is named; otherwise changes nothing (the
   * context's {@code spring.data.redis.url}, or the embedded default, applies). Spring Boot prefers
   * cluster nodes to a URL.
   */
  public static void redisClusterIfNamed(
      org.springframework.test.context.DynamicPropertyRegistry registry) {
    redisCluster().ifPresent(nodes -> registry.add("spring.data.redis.cluster.nodes", () -> nodes));
  }

  @Override
  public void testPlanExecutionFinished(TestPlan testPlan) {
    Map<String, String> planned = new TreeMap<>();
    for (TestDatabase database : TestDatabase.values()) {
      planned.put(database.engine(), database.describe());
    }
    StringBuilder report = new StringBuilder("\n==== hotrank test engines ====\n");
    report.append("Redis: ").append(redisDescription()).append('\n');
    planned.forEach(
        (engine, how) ->
            report
                .append(EXERCISED.contains(engine) ? "RAN      " : "NOT RUN  ")
                .append(engine)
                .append(" (")
                .append(how)
                .append(")\n"));
    EXERCISED.stream()
        .filter(e -> !planned.containsKey(e))
        .forEach(e -> report.append("RAN      ").append(e).append('\n'));
    report.append("==============================");
    if (!EXERCISED.isEmpty()) {
      System.out.println(report);
    }
  }
}
