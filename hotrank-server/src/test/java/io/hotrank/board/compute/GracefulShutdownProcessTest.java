package io.hotrank.board.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.hotrank.HotrankApplication;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.job.JobCancelledException;
import io.hotrank.job.JobScheduler;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Shutting down while a board computation runs: with a grace period the run finishes and publishes;
 * without one it is abandoned before publishing. Either way the context closes.
 */
@Tag("process")
@Isolated // its assertions bound a failover, a lease or a cycle in seconds: run alone
class GracefulShutdownProcessTest {

  @TempDir Path dir;

  private static final int ITEMS = 3000;

  /** Starts an instance whose one board scans 3000 items one row per page: a slow computation. */
  private ConfigurableApplicationContext start(Duration grace) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--server.port=0",
                "--hotrank.data-dir=" + dir,
                "--hotrank.redis.key-prefix=hrtest:" + UUID.randomUUID() + ":",
                "--hotrank.board.scan-page-size=1",
                "--hotrank.job.shutdown-grace=" + grace.toMillis() + "ms",
                "--hotrank.boards[0].name=slow",
                "--hotrank.boards[0].biz=slow",
                "--hotrank.boards[0].size=10",
                "--hotrank.boards[0].refresh=0 0 0 1 1 *"));
    TestEngines.env("HOTRANK_TEST_REDIS_URL")
        .ifPresent(url -> args.add("--spring.data.redis.url=" + url));
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(HotrankApplication.class).run(args.toArray(String[]::new));
    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
    long now = System.currentTimeMillis();
    List<Object[]> items = new ArrayList<>();
    List<Object[]> counters = new ArrayList<>();
    for (long id = 1; id <= ITEMS; id++) {
      items.add(new Object[] {"slow", id, 1L, "item " + id, "", now - id * 1000, now, false});
      counters.add(new Object[] {"slow", id, now - id * 1000, false, id, now});
    }
    jdbc.batchUpdate(
        "INSERT INTO hr_item (biz, id, author_id, title, tags, created_at, updated_at,"
            + " deleted) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        items);
    jdbc.batchUpdate(
        "INSERT INTO hr_item_counter (biz, item_id, created_at, deleted, like_cnt,"
            + " updated_at) VALUES (?, ?, ?, ?, ?, ?)",
        counters);
    return context;
  }

  /** Runs a recompute in the background and waits until it is computing. */
  private static CompletableFuture<BoardSnapshot> recomputeInBackground(
      ConfigurableApplicationContext context) {
    BoardJobs jobs = context.getBean(BoardJobs.class);
    JobScheduler scheduler = context.getBean(JobScheduler.class);
    CompletableFuture<BoardSnapshot> run =
        CompletableFuture.supplyAsync(() -> jobs.recompute("slow"));
    await("the run holds its lease")
        .atMost(Duration.ofSeconds(10))
        .until(() -> scheduler.statuses().stream().anyMatch(s -> s.held() != null));
    return run;
  }

  /** The version of the stored snapshot, read from the database file after the context closed. */
  private long storedVersion() throws Exception {
    try (Connection db =
            DriverManager.getConnection("jdbc:h2:file:" + dir.resolve("hotrank"), "sa", "");
        PreparedStatement query =
            db.prepareStatement("SELECT version FROM hr_board_snapshot WHERE board = ?")) {
      query.setString(1, "slow");
      try (ResultSet rs = query.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /**
   * Also the regression test of the flake "IllegalStateException: ... has been closed already"
   * instead of the cancellation: stores were {@code @Repository} beans, whose exception-translation
   * proxy looks its translators up in the bean factory on the first exception, which after shutdown
   * went through the closed context. Stores are plain components now, so a store failing after
   * shutdown fails with its own exception, whenever the abandoning computation reaches it.
   */
  @Test
  void withoutGrace_aRunningComputationIsAbandoned_andNothingIsPublished() throws Exception {
    ConfigurableApplicationContext context = start(Duration.ZERO);
    CompletableFuture<BoardSnapshot> run = recomputeInBackground(context);
    io.hotrank.item.CounterStore counters = context.getBean(io.hotrank.item.CounterStore.class);
    assertThat(org.springframework.aop.support.AopUtils.isAopProxy(counters)).isFalse();

    context.close();

    assertThat(run)
        .failsWithin(30, TimeUnit.SECONDS)
        .withThrowableThat()
        .havingRootCause()
        .isInstanceOf(JobCancelledException.class);
    assertThat(storedVersion()).isZero();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> counters.windowPage("slow", 0, 0, Long.MAX_VALUE, 10))
        .isInstanceOf(org.springframework.dao.DataAccessException.class)
        .satisfies(
            e -> {
              for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                assertThat(cause)
                    .isNotInstanceOf(IllegalStateException.class)
                    .isNotInstanceOf(
                        org.springframework.beans.factory.BeanCreationNotAllowedException.class);
              }
            });
  }

  @Test
  void withGrace_aRunningComputationFinishesAndPublishes_beforeTheContextCloses() throws Exception {
    ConfigurableApplicationContext context = start(Duration.ofSeconds(60));
    CompletableFuture<BoardSnapshot> run = recomputeInBackground(context);

    context.close();

    assertThat(run).isDone();
    BoardSnapshot published = run.get();
    assertThat(published.size()).isEqualTo(10);
    assertThat(storedVersion()).isEqualTo(published.version());
  }

  /**
   * Regression: closing the context while the notice subscription was starting, or after Redis went
   * away, once waited forever inside the listener container's unsubscribe.
   */
  @Test
  void closingRightAfterStart_andAfterRedisIsGone_doesNotHang() throws Exception {
    try (RedisProcess redis = RedisProcess.start()) {
      String[] args = {
        "--server.port=0",
        "--hotrank.data-dir=" + dir,
        "--spring.data.redis.url=" + redis.url(),
        "--hotrank.board.scheduling=false"
      };
      ConfigurableApplicationContext quick =
          new SpringApplicationBuilder(HotrankApplication.class).run(args);
      assertTimeoutPreemptively(Duration.ofSeconds(30), quick::close, "close right after start");

      ConfigurableApplicationContext orphaned =
          new SpringApplicationBuilder(HotrankApplication.class).run(args);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> redis.command("PUBSUB NUMSUB hr:boards").contains(":1"));
      redis.stop();
      assertTimeoutPreemptively(Duration.ofSeconds(30), orphaned::close, "close with Redis gone");
      assertThat(orphaned.isActive()).isFalse();
    }
  }
}
