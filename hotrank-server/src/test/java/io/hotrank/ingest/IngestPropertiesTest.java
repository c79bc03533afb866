package io.hotrank.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Settings of the event path that cannot work together are refused at start, naming both. */
class IngestPropertiesTest {

  private static IngestProperties with(Duration itemGrace, Duration dedupWindow) {
    return new IngestProperties(
        IngestProperties.Source.KAFKA,
        new IngestProperties.Kafka(
            "hotrank.events",
            12,
            (short) 1,
            "hotrank-fold",
            "",
            Duration.ofSeconds(5),
            Duration.ofSeconds(10),
            itemGrace),
        true,
        2,
        5000,
        100_000,
        Duration.ofSeconds(1),
        Duration.ofMillis(200),
        500,
        Duration.ofMinutes(1),
        Duration.ofDays(1),
        Duration.ofSeconds(5),
        dedupWindow);
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
