package io.hotrank.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotrank.job.JobScheduler;
import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.task.TaskAdmin;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The audit log on one database engine: each audited admin action writes one entry naming the
 * operator and the reason, with its before and after as JSON values; a change that fails (a task
 * that exists, a task that does not, a failure inside the change's transaction) leaves no entry
 * and, for the last, no change; the API pages newest first with a signed cursor and filters by
 * target; the retention job deletes old entries only. Each test works on targets of its own.
 */
@TestPropertySource(properties = "hotrank.jobs.board-ticker.engine=task")
public abstract class AuditContract extends ApiTestSupport {

  @Autowired AuditLog audit;
  @Autowired TaskAdmin tasks;
  @Autowired JobScheduler jobs;

  private static String fresh() {
    return "a" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  private static String q(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private List<JsonNode> entries(String target) {
    Answer page = http.get("/api/v1/admin/audit?limit=200&target=" + q(target), http.adminHeader());
    assertThat(page.status()).as(page.body()).isEqualTo(200);
    List<JsonNode> entries = new ArrayList<>();
    page.json().get("entries").forEach(entries::add);
    return entries;
  }

  private long count(String target) {
    Long n =
        jdbc.queryForObject("SELECT COUNT(*) FROM hr_audit WHERE target = ?", Long.class, target);
    return n == null ? 0 : n;
  }

  private Answer adminCall(String method, String path, String body) {
    return switch (method) {
      case "POST" -> http.post(path, body, http.adminHeader());
      case "PUT" -> http.put(path, body, http.adminHeader());
      default -> http.delete(path, http.adminHeader());
    };
  }

  @Test
  void everyTaskAction_writesOneEntry_withActorReasonAndStates() {
    String name = fresh();
    String base = "/api/v1/admin/tasks/";
    String create =
        "{\"name\":\"" + name + "\",\"job\":\"board-ticker\",\"interval\":\"1h\",\"paused\":true}";
    Answer created = adminCall("POST", "/api/v1/admin/tasks?reason=" + q("new task"), create);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(adminCall("POST", base + name + "/resume?reason=go", "").status()).isEqualTo(200);
    assertThat(adminCall("POST", base + name + "/pause?reason=stop", "").status()).isEqualTo(200);
    assertThat(adminCall("POST", base + name + "/trigger?reason=now", "").status()).isEqualTo(202);
    assertThat(adminCall("PUT", base + name + "?reason=slower", "{\"interval\":\"2h\"}").status())
        .isEqualTo(200);
    assertThat(adminCall("DELETE", base + name + "?reason=done", "").status()).isEqualTo(204);

    List<JsonNode> entries = entries("task:" + name);
    assertThat(entries)
        .extracting(e -> e.get("action").asString())
        .containsExactly(
            "task.delete",
            "task.update",
            "task.trigger",
            "task.pause",
            "task.resume",
            "task.create");
    assertThat(entries)
        .extracting(e -> e.get("reason").asString())
        .containsExactly("done", "slower", "now", "stop", "go", "new task");
    assertThat(entries).allSatisfy(e -> assertThat(e.get("actor").asString()).isEqualTo("admin"));
    JsonNode createEntry = entries.getLast();
    assertThat(createEntry.get("before").isNull()).isTrue();
    assertThat(createEntry.get("after").get("intervalMs").asLong()).isEqualTo(3_600_000);
    assertThat(createEntry.get("after").get("paused").asBoolean()).isTrue();
    JsonNode resume = entries.get(4);
    assertThat(resume.get("before").get("paused").asBoolean()).isTrue();
    assertThat(resume.get("after").get("paused").asBoolean()).isFalse();
    JsonNode update = entries.get(1);
    assertThat(update.get("before").get("intervalMs").asLong()).isEqualTo(3_600_000);
    assertThat(update.get("after").get("intervalMs").asLong()).isEqualTo(7_200_000);
    assertThat(entries.getFirst().get("after").isNull()).isTrue();
    assertThat(entries.getFirst().get("id").asLong())
        .isGreaterThan(entries.getLast().get("id").asLong());
  }

  @Test
  void changesThatFail_leaveNoEntry() {
    String name = fresh();
    // Boards are shared with other tests and earlier runs on the same database: count from here.
    long noSuchBoard = count("board:no-such");
    long newsBoard = count("board:news-hn");
    String create = "{\"name\":\"" + name + "\",\"job\":\"board-ticker\",\"interval\":\"1h\"}";
    assertThat(adminCall("POST", "/api/v1/admin/tasks", create).status()).isEqualTo(201);
    assertThat(count("task:" + name)).isEqualTo(1);

    assertThat(adminCall("POST", "/api/v1/admin/tasks?reason=again", create).status())
        .isEqualTo(409);
    String missing = fresh();
    assertThat(adminCall("POST", "/api/v1/admin/tasks/" + missing + "/pause?reason=x", "").status())
        .isEqualTo(404);
    assertThat(adminCall("DELETE", "/api/v1/admin/tasks/" + missing, "").status()).isEqualTo(404);
    assertThat(adminCall("POST", "/api/v1/admin/boards/no-such/recompute", "").status())
        .isEqualTo(404);
    assertThat(adminCall("POST", "/api/v1/admin/boards/news-hn/rebuild?reason=x", "").status())
        .as("a batch board is not rebuilt")
        .isEqualTo(409);
    assertThat(
            adminCall(
                    "POST", "/api/v1/admin/tasks/" + name + "/pause?reason=" + "r".repeat(501), "")
                .status())
        .isEqualTo(400);
    assertThat(count("task:" + name)).isEqualTo(1);
    assertThat(count("task:" + missing)).isZero();
    assertThat(count("board:no-such")).isEqualTo(noSuchBoard);
    assertThat(count("board:news-hn")).isEqualTo(newsBoard);

    // A failure inside the change's transaction (here the entry itself: an actor too long) undoes
    // the change too.
    assertThatThrownBy(() -> tasks.pause(name, "x".repeat(65), "forced"))
        .isInstanceOf(IllegalArgumentException.class);
    Answer task = http.get("/api/v1/admin/tasks/" + name, http.adminHeader());
    assertThat(task.json().get("paused").asBoolean()).isFalse();
    assertThat(count("task:" + name)).isEqualTo(1);
  }

  @Test
  void recomputeFoldAndBizCreate_areAudited() {
    Answer first = adminCall("POST", "/api/v1/admin/boards/news-hn/recompute?reason=one", "");
    assertThat(first.status()).as(first.body()).isEqualTo(200);
    Answer second = adminCall("POST", "/api/v1/admin/boards/news-hn/recompute?reason=two", "");
    assertThat(second.status()).isEqualTo(200);
    JsonNode recompute = entries("board:news-hn").getFirst();
    assertThat(recompute.get("action").asString()).isEqualTo("board.recompute");
    assertThat(recompute.get("reason").asString()).isEqualTo("two");
    assertThat(recompute.get("before").get("version").asLong())
        .isEqualTo(first.json().get("version").asLong());
    assertThat(recompute.get("after").get("version").asLong())
        .isEqualTo(second.json().get("version").asLong());

    long folds = count("events");
    assertThat(adminCall("POST", "/api/v1/admin/events/fold?reason=catch%20up", "").status())
        .isEqualTo(200);
    assertThat(count("events")).isEqualTo(folds + 1);
    JsonNode fold = entries("events").getFirst();
    assertThat(fold.get("action").asString()).isEqualTo("events.fold");
    assertThat(fold.get("reason").asString()).isEqualTo("catch up");
    assertThat(fold.get("after").has("foldNo")).isTrue();

    String biz = fresh();
    String body = "{\"name\":\"" + biz + "\"}";
    assertThat(adminCall("POST", "/api/v1/admin/bizes?reason=launch", body).status())
        .isEqualTo(201);
    assertThat(adminCall("POST", "/api/v1/admin/bizes?reason=again", body).status()).isEqualTo(200);
    List<JsonNode> bizEntries = entries("biz:" + biz);
    assertThat(bizEntries).hasSize(1);
    assertThat(bizEntries.getFirst().get("action").asString()).isEqualTo("biz.create");
    assertThat(bizEntries.getFirst().get("actor").asString()).isEqualTo("admin");
    assertThat(bizEntries.getFirst().get("reason").asString()).isEqualTo("launch");
  }

  @Test
  void pages_newestFirst_withASignedCursor_andTargetFilters() {
    String root = "test:" + fresh();
    for (int i = 0; i < 7; i++) {
      audit.record("alice", "test.step", root + "/" + (i % 2), "step " + i, null, Map.of("i", i));
    }
    audit.record("bob", "test.other", root + "x", null, "[1,2]", null);

    List<Integer> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      Answer page =
          http.get(
              "/api/v1/admin/audit?limit=3&target="
                  + q(root + "/*")
                  + (cursor == null ? "" : "&cursor=" + q(cursor)),
              http.adminHeader());
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      page.json().get("entries").forEach(e -> seen.add(e.get("after").get("i").asInt()));
      JsonNode next = page.json().get("next");
      cursor = next.isNull() ? null : next.asString();
      pages++;
    } while (cursor != null);
    assertThat(seen).containsExactly(6, 5, 4, 3, 2, 1, 0);
    assertThat(pages).isEqualTo(3);

    assertThat(entries(root + "/1"))
        .extracting(e -> e.get("after").get("i").asInt())
        .containsExactly(5, 3, 1);
    List<JsonNode> other = entries(root + "x");
    assertThat(other).hasSize(1);
    assertThat(other.getFirst().get("before").isArray()).isTrue();
    assertThat(other.getFirst().get("reason").isNull()).isTrue();
    assertThat(entries(root + "*")).hasSize(8);
    assertThat(entries(root.replace(":", "_") + "*")).as("'_' is no wildcard").isEmpty();

    Answer first =
        http.get("/api/v1/admin/audit?limit=3&target=" + q(root + "/*"), http.adminHeader());
    String next = first.json().get("next").asString();
    String tampered = next.substring(0, next.length() - 2) + (next.endsWith("A") ? "BB" : "AA");
    for (String bad :
        List.of(
            "/api/v1/admin/audit?target=" + q(root + "/*") + "&cursor=" + q(tampered),
            "/api/v1/admin/audit?target=" + q(root + "/1") + "&cursor=" + q(next),
            "/api/v1/admin/audit?cursor=garbage")) {
      Answer refused = http.get(bad, http.adminHeader());
      assertThat(refused.status()).as(bad).isEqualTo(400);
      assertThat(refused.json().get("errors").get(0).get("field").asString()).isEqualTo("cursor");
    }
    for (String limit : List.of("0", "201", "x")) {
      Answer refused = http.get("/api/v1/admin/audit?limit=" + limit, http.adminHeader());
      assertThat(refused.status()).isEqualTo(400);
      assertThat(refused.json().get("errors").get(0).get("field").asString()).isEqualTo("limit");
    }
  }

  @Test
  void theRetentionJob_deletesOldEntriesOnly() throws Exception {
    String target = "test:" + fresh();
    clock.set(NOW.minus(Duration.ofDays(91)));
    for (int i = 0; i < 3; i++) {
      audit.record("alice", "test.old", target, null, null, null);
    }
    clock.set(NOW.minus(Duration.ofDays(89)));
    audit.record("alice", "test.recent", target, null, null, null);
    clock.set(NOW);
    audit.record("alice", "test.new", target, null, null, null);

    Object deleted = jobs.runNow(AuditRetention.JOB);
    assertThat((Long) deleted).isGreaterThanOrEqualTo(3);
    assertThat(entries(target))
        .extracting(e -> e.get("action").asString())
        .containsExactly("test.new", "test.recent");
  }

  /**
   * The job deletes in batches of {@value AuditRetention#BATCH}: more old entries than two batches
   * (as a first run after an upgrade, or after the job was off, finds) all go, in one run.
   */
  @Test
  void theRetentionJob_deletesMoreThanOneBatch_inOneRun() throws Exception {
    String target = "test:" + fresh();
    long old = NOW.minus(Duration.ofDays(91)).toEpochMilli();
    int rows = 2 * AuditRetention.BATCH + 1;
    List<Object[]> params = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      params.add(new Object[] {old + i, "alice", "test.old", target});
    }
    jdbc.batchUpdate(
        "INSERT INTO hr_audit (at, actor, action, target) VALUES (?, ?, ?, ?)", params);
    clock.set(NOW);
    audit.record("alice", "test.new", target, null, null, null);
    assertThat(count(target)).isEqualTo(rows + 1);

    Object deleted = jobs.runNow(AuditRetention.JOB);
    assertThat((Long) deleted).isGreaterThanOrEqualTo(rows);
    assertThat(count(target)).isEqualTo(1);
    assertThat(entries(target))
        .extracting(e -> e.get("action").asString())
        .containsExactly("test.new");
  }
}
