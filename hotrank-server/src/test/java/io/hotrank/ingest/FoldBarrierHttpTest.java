package io.hotrank.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson.Answer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * A manual recompute first waits until every event accepted before it is folded, with the default
 * bound ({@code hotrank.ingest.fold-barrier-timeout}, 5 s): a client that posts events and then
 * recomputes gets a board with them, and a fold that cannot get there in time is a 503 with
 * Retry-After that recomputes nothing. The embedded default's context of {@code H2ApiTest}.
 */
@TestPropertySource(properties = "hotrank.data-dir=target/test-data/h2")
class FoldBarrierHttpTest extends ApiTestSupport {

  @Autowired DataSource dataSource;

  @Override
  protected String engine() {
    return "H2";
  }

  private void like(long id, int users) {
    StringBuilder events = new StringBuilder();
    for (int u = 1; u <= users; u++) {
      events.append(events.isEmpty() ? "" : ",");
      events.append("{\"biz\":\"news\",\"itemId\":").append(id);
      events.append(",\"type\":\"like\",\"userId\":").append(u).append('}');
    }
    Answer accepted = http.post("/api/v1/events", "{\"events\":[" + events + "]}");
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(202);
  }

  private long version() {
    return http.get("/api/v1/boards/news-reddit").json().get("version").asLong();
  }

  @Test
  void eventsAcceptedBeforeARecompute_areInIt_withoutAManualFold() {
    createItem("news", 1L, "one", 1, NOW.minusSeconds(60));
    createItem("news", 2L, "two", 1, NOW.minusSeconds(60));
    like(1, 1);
    like(2, 3);

    Answer recomputed = http.admin("/api/v1/admin/boards/news-reddit/recompute");

    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
    assertThat(boardIds("news-reddit")).containsExactly(2L, 1L);
  }

  @Test
  void aFoldThatCannotGetThereInTime_isA503WithRetryAfter_andRecomputesNothing() throws Exception {
    createItem("news", 1L, "one", 1, NOW.minusSeconds(60));
    fold();
    assertThat(http.admin("/api/v1/admin/boards/news-reddit/recompute").status()).isEqualTo(200);
    long before = version();
    try (Connection holder = dataSource.getConnection()) {
      // Every fold locks the cursor's row first: held here, no fold can commit.
      holder.setAutoCommit(false);
      try (Statement lock = holder.createStatement();
          ResultSet rows = lock.executeQuery("SELECT * FROM hr_fold_cursor FOR UPDATE")) {
        assertThat(rows.next()).isTrue();
        like(1, 2);

        Answer refused = http.admin("/api/v1/admin/boards/news-reddit/recompute");

        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.json().get("type").asString()).endsWith("/fold-behind");
        assertThat(refused.json().get("detail").asString())
            .contains("hotrank.ingest.fold-barrier-timeout");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(version()).as("nothing recomputed").isEqualTo(before);
      } finally {
        holder.rollback();
      }
    }
    Answer recomputed = http.admin("/api/v1/admin/boards/news-reddit/recompute");
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
    assertThat(version()).isGreaterThan(before);
    assertThat(boardIds("news-reddit")).containsExactly(1L);
  }
}
