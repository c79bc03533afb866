package io.hotrank.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotrank.support.TestIngestProperties;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Settings of the event path that cannot work together are refused at start, naming both. */
class IngestPropertiesTest {

  private static IngestProperties with(Duration itemGrace, Duration dedupWindow) {
    return TestIngestProperties.of(IngestProperties.Source.KAFKA, itemGrace, dedupWindow);
  }

  @Test
  void anItemGraceAsLongAsTheDedupWindow_isRefused() {
    assertThat(with(Duration.ofSeconds(30), Duration.ofHours(24)).dedupWindow())
        .isEqualTo(Duration.ofHours(24));
    assertThatThrownBy(() -> with(Duration.ofHours(1), Duration.ofHours(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("item-grace=PT1H")
        .hasMessageContaining("dedup-window=PT1H");
  }
}
