package io.hotrank.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import io.hotrank.support.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Fan-out survives {@code kill -9} of the instance doing it, with hotrank as its own process: the
 * fan-out of an item is stopped after its first round of pushes (half its author's followers have
 * it), the process is killed there, and the next instance finishes the work. Every active follower
 * then has each item exactly once, in order; none is lost, none doubled.
 */
@Tag("process")
class FanOutProcessTest {

  /** More than one round of pushes ({@link FanOut#FOLLOWERS_PAGE}). */
  private static final int FOLLOWERS = FanOut.FOLLOWERS_PAGE + 100;

  private static final long AUTHOR = 7;

  /** Followers are users FIRST .. FIRST + FOLLOWERS - 1. */
  private static final long FIRST = 1000;

  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  @Test
  void aFanOutKilledMidItem_isFinishedByTheNextInstance_losingAndDoublingNothing()
      throws Exception {
    TestEngines.exercised("H2");
    Path faults = processes.dir("faults");
    RedisProcess redis = processes.redis();
    List<String> args =
        List.of(
            "--spring.data.redis.url=" + redis.url(),
            "--hotrank.redis.key-prefix=fanout:",
            "--hotrank.bizes=post",
            "--hotrank.data-dir=" + processes.dir("data"),
            "--hotrank.feeds.fanout-interval=50ms",
            // The killed instance's lease on the job lapses soon: the next takes over then.
            "--hotrank.jobs.feed-fanout.lease-ttl=3s");
    ServiceProcess first =
        processes.start(
            ServiceProcesses.instance("first")
                .withJvmOptions("-Dhotrank.fault.dir=" + faults)
                .withArgs(args));
    HttpJson http = first.http();
    // Every follower follows the author and reads their (empty) feed: active, with an inbox.
    forEachFollower(
        user -> {
          assertThat(http.put("/api/v1/users/" + user + "/following/" + AUTHOR, "").status())
              .isEqualTo(204);
          assertThat(http.get("/api/v1/users/" + user + "/feed").status()).isEqualTo(200);
        });
    Files.writeString(faults.resolve(FanOut.NAME + ".mid-item"), "60000");
    Instant at = Instant.parse("2026-11-30T10:00:00Z");
    for (long id = 1; id <= 3; id++) {
      Answer created =
          http.post(
              "/api/v1/items",
              HttpJson.json(
                  Map.of(
                      "biz",
                      "post",
                      "id",
                      id,
                      "authorId",
                      AUTHOR,
                      "title",
                      "post " + id,
                      "createdAt",
                      at.plusSeconds(id).toString())));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> first.output().contains("point=mid-item"));
    first.signal("KILL");
    // Killed after the first round of pushes of item 1: some inboxes have it, none has item 2.
    int withFirst = 0;
    for (long user = FIRST; user < FIRST + FOLLOWERS; user++) {
      if (!redis.command("ZSCORE fanout:fi:" + user + " post:" + member(1)).startsWith("$-1")) {
        withFirst++;
      }
      assertThat(redis.command("ZSCORE fanout:fi:" + user + " post:" + member(2)))
          .startsWith("$-1");
    }
    assertThat(withFirst).isEqualTo(FanOut.FOLLOWERS_PAGE);

    ServiceProcess next = processes.start("next", args);
    HttpJson nextHttp = next.http();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> feed(nextHttp, FIRST + FOLLOWERS - 1).size() == 3);
    forEachFollower(
        user -> {
          assertThat(feed(nextHttp, user)).as("user %d", user).containsExactly(3L, 2L, 1L);
          try {
            // Three entries and the inbox's sentinel: nothing doubled, nothing rebuilt.
            assertThat(redis.command("ZCARD fanout:fi:" + user)).startsWith(":4");
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
  }

  private static String member(long id) {
    return String.format("%019d", id);
  }

  private static List<Long> feed(HttpJson http, long user) {
    Answer answer = http.get("/api/v1/users/" + user + "/feed?limit=10");
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    List<Long> ids = new ArrayList<>();
    for (JsonNode item : answer.json().get("items")) {
      ids.add(item.get("itemId").asLong());
    }
    return ids;
  }

  private static void forEachFollower(Consumer<Long> action) throws Exception {
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      List<Future<?>> futures = new ArrayList<>();
      for (long user = FIRST; user < FIRST + FOLLOWERS; user++) {
        long u = user;
        futures.add(pool.submit(() -> action.accept(u)));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    }
  }
}
