package io.hotrank.support;

import io.hotrank.ingest.IngestProperties;
import java.time.Duration;

/** The event path's settings at their defaults, for tests that build its parts by hand. */
public final class TestIngestProperties {

  private TestIngestProperties() {}

  /** The defaults, with the given source, Kafka item grace and dedup window. */
  public static IngestProperties of(
      IngestProperties.Source source, Duration itemGrace, Duration dedupWindow) {
    return new IngestProperties(
        source,
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
}
