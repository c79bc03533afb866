package io.hotrank.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The task platform's admin API as an operator uses it, on the embedded default with two board jobs
 * moved to the task engine: {@code board-ticker} (fires every second) and {@code board-news-hn}
 * (fires once a year, so runs only when asked).
 */
@TestPropertySource(
    properties = {
      "hotrank.data-dir=target/test-data/h2/tasks",
      "hotrank.jobs.board-ticker.engine=task",
      "hotrank.jobs.board-news-hn.engine=task",
      "hotrank.task.poll-interval=200ms"
    })
class TaskAdminHttpTest extends ApiTestSupport {

  private static final String TASKS = "/api/v1/admin/tasks";

  @Override
  protected String engine() {
    return "H2";
  }

  private Answer get(String path) {
    return http.get(path, http.adminHeader());
  }

  private Answer post(String path, String body) {
    return http.post(path, body, http.adminHeader());
  }

  private JsonNode task(String name) {
    Answer answer = get(TASKS + "/" + name);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer.json();
  }

  private List<JsonNode> runs(String name, int limit, int offset) {
    Answer answer = get(TASKS + "/" + name + "/runs?limit=" + limit + "&offset=" + offset);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    List<JsonNode> runs = new ArrayList<>();
    answer.json().get("runs").forEach(runs::add);
    return runs;
  }

  private static String localTime(String instant, String zone) {
    return java.time.Instant.parse(instant)
        .atZone(java.time.ZoneId.of(zone))
        .toLocalTime()
        .toString();
  }

  @Test
  void theTasksOfConfiguredJobs_exist_andTheApiNeedsTheToken() {
    assertThat(http.get(TASKS).status()).isEqualTo(401);
    assertThat(http.admin(TASKS + "/board-ticker/pause").status()).isEqualTo(200);
    assertThat(http.post(TASKS + "/board-ticker/resume", "").status()).isEqualTo(401);
    Answer list = get(TASKS);
    assertThat(list.status()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    list.json().get("tasks").forEach(t -> names.add(t.get("name").asString()));
    assertThat(names).contains("board-ticker", "board-news-hn");
    JsonNode ticker = task("board-ticker");
    assertThat(ticker.get("source").asString()).isEqualTo("config");
    assertThat(ticker.get("cron").asString()).isEqualTo("* * * * * *");
    assertThat(ticker.get("zone").asString()).isEqualTo("UTC");
    assertThat(post(TASKS + "/board-ticker/resume", "").status()).isEqualTo(200);
    // The job view says where the job runs.
    JsonNode jobs = http.get("/api/v1/admin/jobs", http.adminHeader()).json().get("jobs");
    jobs.forEach(
        job -> {
          if (job.get("name").asString().equals("board-ticker")) {
            assertThat(job.get("engine").asString()).isEqualTo("task");
            assertThat(job.get("lease").isNull()).isTrue();
          }
        });
  }

  /**
   * An operator pauses the every-second board job: the run in progress ends and no other starts; a
   * trigger runs it once, still paused; resume brings the schedule back. The history shows it all,
   * newest first.
   */
  @Test
  void pause_trigger_resume_andTheHistory() {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> task("board-ticker").get("lastRun").isObject());
    Answer paused = post(TASKS + "/board-ticker/pause", "");
    assertThat(paused.status()).as(paused.body()).isEqualTo(200);
    assertThat(paused.json().get("paused").asBoolean()).isTrue();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> task("board-ticker").get("status").asString().equals("paused"));
    long newest = runs("board-ticker", 1, 0).getFirst().get("fence").asLong();
    await()
        .during(Duration.ofMillis(2500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> runs("board-ticker", 1, 0).getFirst().get("fence").asLong() == newest);

    Answer triggered = post(TASKS + "/board-ticker/trigger", "");
    assertThat(triggered.status()).as(triggered.body()).isEqualTo(202);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> runs("board-ticker", 1, 0).getFirst().get("fence").asLong() > newest);
    JsonNode asked = runs("board-ticker", 1, 0).getFirst();
    assertThat(asked.get("trigger").asString()).isEqualTo("request");
    assertThat(asked.get("outcome").asString()).isEqualTo("succeeded");
    assertThat(asked.get("fence").asLong()).isPositive();
    assertThat(task("board-ticker").get("status").asString()).isEqualTo("paused");

    assertThat(post(TASKS + "/board-ticker/resume", "").status()).isEqualTo(200);
    // The schedule is back: a scheduled run succeeds after the one asked for.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                runs("board-ticker", 20, 0).stream()
                    .anyMatch(
                        run ->
                            run.get("fence").asLong() > asked.get("fence").asLong()
                                && run.get("trigger").asString().equals("schedule")
                                && run.get("outcome").asString().equals("succeeded")));

    // Paged newest first; paused, so that no run lands between the two pages.
    assertThat(post(TASKS + "/board-ticker/pause", "").status()).isEqualTo(200);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> task("board-ticker").get("status").asString().equals("paused"));
    List<JsonNode> page = runs("board-ticker", 3, 0);
    List<JsonNode> next = runs("board-ticker", 3, 1);
    assertThat(page.get(0).get("fence").asLong()).isGreaterThan(page.get(1).get("fence").asLong());
    assertThat(next.get(0).get("fence").asLong()).isEqualTo(page.get(1).get("fence").asLong());
    // The default history: successful runs are kept in the task's ring, without a row id.
    JsonNode history = get(TASKS + "/board-ticker/runs").json().get("history");
    assertThat(history.get("mode").asString()).isEqualTo("failures");
    assertThat(history.get("keep").asInt()).isEqualTo(20);
    assertThat(page.getFirst().get("id").isNull()).isTrue();
    assertThat(post(TASKS + "/board-ticker/resume", "").status()).isEqualTo(200);
  }

  /** A board recompute on the task engine runs as a manual task run and publishes its fence. */
  @Test
  void aRecompute_ofABoardOnTheTaskEngine_isAManualRunOfItsTask() {
    Answer recomputed = http.admin("/api/v1/admin/boards/news-hn/recompute");
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
    JsonNode run = runs("board-news-hn", 1, 0).getFirst();
    assertThat(run.get("trigger").asString()).isEqualTo("request");
    assertThat(run.get("outcome").asString()).isEqualTo("succeeded");
    Long fence =
        jdbc.queryForObject(
            "SELECT fence FROM hr_board_snapshot WHERE board = ? ORDER BY version DESC LIMIT 1",
            Long.class,
            "news-hn");
    assertThat(fence).isEqualTo(run.get("fence").asLong());
  }

  @Test
  void create_change_delete_andEveryRefusalNamesItsField() {
    String name = "nightly-" + UUID.randomUUID().toString().substring(0, 8);
    Answer bad =
        post(
            TASKS,
            "{\"name\":\""
                + name
                + "\",\"job\":\"board-ticker\",\"cron\":\"0 0 3 * *\",\"zone\":\"Mars/Base\"}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.header("Content-Type")).startsWith("application/problem+json");
    List<String> fields = new ArrayList<>();
    bad.json().get("errors").forEach(e -> fields.add(e.get("field").asString()));
    assertThat(fields).containsExactly("cron", "zone");
    assertThat(get(TASKS + "/" + name).status()).isEqualTo(404);

    Answer created =
        post(
            TASKS,
            "{\"name\":\""
                + name
                + "\",\"job\":\"board-ticker\",\"cron\":\"0 0 3 * * *\",\"zone\":\"Europe/Berlin\","
                + "\"misfire\":\"fire-once\",\"maxRetries\":1,\"parameters\":{\"depth\":2}}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.header("Location")).isEqualTo(TASKS + "/" + name);
    JsonNode task = created.json();
    assertThat(task.get("source").asString()).isEqualTo("api");
    assertThat(task.get("misfire").asString()).isEqualTo("fire-once");
    assertThat(task.get("parameters").get("depth").asInt()).isEqualTo(2);
    // 03:00 in Berlin, whatever the time of year.
    assertThat(localTime(task.get("nextFireTime").asString(), "Europe/Berlin")).isEqualTo("03:00");
    assertThat(post(TASKS, "{\"name\":\"" + name + "\",\"job\":\"board-ticker\"}").status())
        .isEqualTo(409);

    Answer badZone =
        http.put(TASKS + "/" + name, "{\"zone\":\"Nowhere/Land\"}", http.adminHeader());
    assertThat(badZone.status()).isEqualTo(400);
    assertThat(badZone.json().get("errors").get(0).get("field").asString()).isEqualTo("zone");
    Answer changed = http.put(TASKS + "/" + name, "{\"zone\":\"Asia/Tokyo\"}", http.adminHeader());
    assertThat(changed.status()).as(changed.body()).isEqualTo(200);
    assertThat(localTime(changed.json().get("nextFireTime").asString(), "Asia/Tokyo"))
        .isEqualTo("03:00");

    assertThat(http.delete(TASKS + "/board-ticker", http.adminHeader()).status()).isEqualTo(409);
    assertThat(http.delete(TASKS + "/" + name, http.adminHeader()).status()).isEqualTo(204);
    assertThat(get(TASKS + "/" + name).status()).isEqualTo(404);
    assertThat(get(TASKS + "/" + name + "/runs").status()).isEqualTo(404);
    assertThat(
            get(TASKS + "/board-ticker/runs?limit=0")
                .json()
                .get("errors")
                .get(0)
                .get("field")
                .asString())
        .isEqualTo("limit");
  }
}
