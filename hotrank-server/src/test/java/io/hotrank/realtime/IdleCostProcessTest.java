package io.hotrank.realtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.BoardReads;
import io.hotrank.support.HttpJson;
import io.hotrank.support.PostgresProcess;
import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import io.hotrank.support.TestDatabase;
import io.hotrank.support.TestEngines;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A service at rest reads item rows only as its boards' settings ask, not at every look: one
 * instance with the shipped boards (a batch, a live, a window board and a leaderboard of {@code
 * article}), 1,000 items, no events and no edits, on a PostgreSQL server of the test's own, whose
 * statistics ({@code pg_stat_user_tables}) count what the service reads. Before the realtime
 * boards' publishes kept their cards between looks ({@code PublishedCards}), they read about 400
 * cards a second here, one index scan of {@code hr_item} each (8,030 in the 20 seconds measured).
 * Now each realtime board reads its candidates' cards again at most every {@code
 * hotrank.items.cache.metadata-fresh} (30 s), and the batch board rescans its window each minute,
 * as configured: at most one of each falls in the 20 seconds, and the bounds allow them. Then an
 * edit and a delete, with no event, still reach the live board at its next look. Run before the
 * change, it failed with about 9,600 index scans of {@code hr_item} in the 20 seconds.
 */
@Tag("process")
@Isolated // its assertions count looks or bound heartbeats in seconds: run alone
class IdleCostProcessTest {

  private static final int ITEMS = 1000;

  /** How long the service is watched at rest. */
  private static final Duration AT_REST = Duration.ofSeconds(20);

  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  /**
   * What a table was read by: scans started (index and sequential; a card read by a nested loop
   * costs an index scan of {@code hr_item}, a small table may be read by one sequential scan
   * instead, as the planner sees fit) and rows read.
   */
  private record Reads(long scans, long rows) {}

  @Test
  void atRest_theBoardsReadNoItemRows_whateverTheCatalogueHolds() throws Exception {
    // .ci/run has them; elsewhere the test says why it did not run.
    Assumptions.assumeTrue(
        PostgresProcess.installed(),
        "PostgreSQL's server binaries are not under /usr/lib/postgresql (apt-get install postgresql)");
    TestEngines.exercised(TestDatabase.POSTGRES.engine());
    try (PostgresProcess pg = PostgresProcess.start()) {
      pg.createDatabase("hotrank");
      ServiceProcess service =
          processes.start(
              "idle",
              List.of(
                  "--spring.data.redis.url=" + processes.redis().url(),
                  "--hotrank.redis.key-prefix=idle:",
                  "--spring.datasource.url=" + pg.url("hotrank"),
                  "--spring.datasource.username=postgres"));
      HttpJson http = service.http();
      for (long id = 1; id <= ITEMS; id++) {
        HttpJson.Answer created =
            http.post(
                "/api/v1/items",
                HttpJson.json(
                    Map.of(
                        "biz", "article", "id", id, "authorId", id % 50, "title", "item " + id)));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
      }
      await("the live board's first full publish")
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                HttpJson.Answer read = http.get("/api/v1/boards/article-rising?limit=100");
                return read.status() == 200 && BoardReads.ids(read.json()).size() == 100;
              });
      await("the leaderboard's first publish")
          .atMost(Duration.ofSeconds(60))
          .until(() -> http.get("/api/v1/boards/article-most-liked").status() == 200);
      try (Connection db = DriverManager.getConnection(pg.url("hotrank"), "postgres", "")) {
        // What the creation read must be counted before the first reading. A backend flushes its
        // statistics at the end of a transaction a second after its last flush, or once idle for
        // PostgreSQL's 10 s (PGSTAT_IDLE_INTERVAL): the creations' own backends have flushed when
        // the table shows every insert, and the others have by the idle interval, which no
        // statistic shows, so that much passes first.
        await("the creation's statistics flushed")
            .pollDelay(Duration.ofSeconds(11))
            .atMost(Duration.ofSeconds(60))
            .until(() -> inserted(db, "hr_item") >= ITEMS);
        Map<String, Reads> before = reads(db);
        Thread.sleep(AT_REST); // the measured window itself: reads per 20 s at rest, not a wait
        Map<String, Reads> after = reads(db);
        Reads items = minus(after.get("hr_item"), before.get("hr_item"));
        Reads counters = minus(after.get("hr_item_counter"), before.get("hr_item_counter"));
        Reads cursor = minus(after.get("hr_fold_cursor"), before.get("hr_fold_cursor"));
        System.out.printf(
            "At rest for %s with %d items: hr_item %d scans, %d rows; hr_item_counter %d scans,"
                + " %d rows; hr_fold_cursor %d scans (looks)%n",
            AT_REST,
            ITEMS,
            items.scans(),
            items.rows(),
            counters.scans(),
            counters.rows(),
            cursor.scans());
        // The boards were looked at all along: each look reads the event log's last fold.
        assertThat(cursor.scans()).as("looks at the boards (fold cursor reads)").isGreaterThan(60);
        // At most one scan a card: a batch run reads its 100 cards, each realtime board reads its
        // candidates again at most once (the leaderboard keeps 200). Rows are not asserted: how
        // many a scan reads is the planner's choice (a sequential scan of a small table reads
        // all), and the item filter job's count of each biz's items, every 30 seconds, reads heap
        // rows or none depending on vacuum.
        assertThat(items.scans()).as("hr_item scans at rest").isLessThan(700);
        assertThat(counters.scans()).as("hr_item_counter scans at rest").isLessThan(700);
      }
      // Cards held between looks still show a write at the next look, with no event.
      long edited = topOf(http).get(0);
      long deleted = topOf(http).get(1);
      HttpJson.Answer put =
          http.put(
              "/api/v1/items/article/" + edited,
              HttpJson.json(Map.of("authorId", 3, "title", "edited at rest")));
      assertThat(put.status()).as(put.body()).isEqualTo(200);
      assertThat(http.delete("/api/v1/items/article/" + deleted).status()).isEqualTo(204);
      await("the edit and the delete on the live board")
          .atMost(Duration.ofSeconds(5))
          .until(
              () -> {
                var page = http.get("/api/v1/boards/article-rising?limit=100").json();
                List<String> titles = new java.util.ArrayList<>();
                page.get("items").forEach(e -> titles.add(e.get("title").asString()));
                return !BoardReads.ids(page).contains(deleted) && titles.contains("edited at rest");
              });
    }
  }

  private static List<Long> topOf(HttpJson http) {
    return BoardReads.ids(http.get("/api/v1/boards/article-rising?limit=100").json());
  }

  /** The rows inserted into {@code table}, as the statistics show them. */
  private static long inserted(Connection db, String table) throws Exception {
    try (PreparedStatement statement =
        db.prepareStatement("SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = ?")) {
      statement.setString(1, table);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  private static Map<String, Reads> reads(Connection db) throws Exception {
    Map<String, Reads> reads = new HashMap<>();
    try (PreparedStatement statement =
        db.prepareStatement(
            "SELECT relname, coalesce(idx_scan, 0) + seq_scan,"
                + " coalesce(idx_tup_fetch, 0) + seq_tup_read"
                + " FROM pg_stat_user_tables WHERE relname IN (?, ?, ?)")) {
      statement.setString(1, "hr_item");
      statement.setString(2, "hr_item_counter");
      statement.setString(3, "hr_fold_cursor");
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          reads.put(rs.getString(1), new Reads(rs.getLong(2), rs.getLong(3)));
        }
      }
    }
    assertThat(reads).containsKeys("hr_item", "hr_item_counter", "hr_fold_cursor");
    return reads;
  }

  private static Reads minus(Reads after, Reads before) {
    return new Reads(after.scans() - before.scans(), after.rows() - before.rows());
  }
}
