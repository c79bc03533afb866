package io.hotrank.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.ingest.fold.FoldNumbers;
import io.hotrank.job.FaultPoints;
import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.TestData;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Regression (issue 24 review): a manual fold that failed after some folds had committed wrote no
 * audit entry, although those folds happened. Here the second of three folds fails just after its
 * commit (a fault point); the call answers 500 and the audit log records the two folds that
 * committed, with who asked and why. The scheduled folder is off so that only the call folds, and a
 * fold takes two rows so that five events need three folds.
 */
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "fold-audit",
      "hotrank.ingest.folding=false",
      "hotrank.ingest.fold-events=2"
    })
@Import(ManualFoldAuditTest.Faults.class)
class ManualFoldAuditTest extends ApiTestSupport {

  static {
    TestData.empty("fold-audit");
  }

  /** Fails the fold whose commit is the {@link #failAt}-th after arming; nothing when unarmed. */
  @TestConfiguration
  static class Faults {

    static final AtomicInteger failAt = new AtomicInteger();
    static final AtomicInteger commits = new AtomicInteger();

    @Bean
    @Primary
    FaultPoints failingFold() {
      return (job, where, detail) -> {
        if (job.equals("event-fold")
            && where.equals("after-commit")
            && failAt.get() > 0
            && commits.incrementAndGet() == failAt.get()) {
          throw new IllegalStateException("fault injected after the commit of " + detail);
        }
      };
    }
  }

  @Autowired FoldNumbers numbers;

  @Override
  protected String engine() {
    return "H2";
  }

  @Test
  void aFoldThatFailsPartWay_auditsTheFoldsThatCommitted() {
    createItem("news", 1L, "one", 1, null);
    StringBuilder events = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      events.append(i == 0 ? "" : ",").append("{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"}");
    }
    Answer accepted = http.post("/api/v1/events", "{\"events\":[" + events + "]}");
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(202);
    long foldNo = numbers.lastFoldNo();
    Faults.commits.set(0);
    Faults.failAt.set(2);
    Answer failed;
    try {
      failed = http.post("/api/v1/admin/events/fold?reason=partial", "", http.adminHeader());
    } finally {
      Faults.failAt.set(0);
    }

    assertThat(failed.status()).as(failed.body()).isEqualTo(500);
    assertThat(numbers.lastFoldNo()).as("two folds committed").isEqualTo(foldNo + 2);
    Answer log = http.get("/api/v1/admin/audit?target=events", http.adminHeader());
    JsonNode entry = log.json().get("entries").get(0);
    assertThat(entry.get("action").asString()).isEqualTo("events.fold");
    assertThat(entry.get("actor").asString()).isEqualTo("admin");
    assertThat(entry.get("reason").asString()).isEqualTo("partial");
    assertThat(entry.get("after").get("folds").asInt()).isEqualTo(2);
    assertThat(entry.get("after").get("events").asInt()).isEqualTo(4);
    assertThat(entry.get("after").get("failed").asString()).isEqualTo("IllegalStateException");

    // The rest folds on the next call, audited as a whole one.
    Answer rest = http.post("/api/v1/admin/events/fold?reason=rest", "", http.adminHeader());
    assertThat(rest.status()).as(rest.body()).isEqualTo(200);
    assertThat(rest.json().get("events").asInt()).isEqualTo(1);
    JsonNode last =
        http.get("/api/v1/admin/audit?target=events", http.adminHeader())
            .json()
            .get("entries")
            .get(0);
    assertThat(last.get("reason").asString()).isEqualTo("rest");
    assertThat(last.get("after").get("foldNo").asLong()).isEqualTo(foldNo + 3);
  }
}
