package io.hotrank.ingest;

import io.hotrank.item.Bizes;
import io.hotrank.item.LiveItems;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The accepting side of the event path: validation and the group commit, whatever the source. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IngestProperties.class)
class IngestConfiguration {

  /** Settings that moved, and where to: a deployment that still sets one is told at start. */
  private static final java.util.Map<String, String> MOVED =
      java.util.Map.of(
          "hotrank.ingest.item-cache-size", "hotrank.items.live.entries",
          "hotrank.ingest.item-cache-ttl", "hotrank.items.live.ttl");

  /**
   * @throws IllegalStateException when a moved setting is set, rather than ignore it silently
   */
  IngestConfiguration(org.springframework.core.env.Environment environment) {
    MOVED.forEach(
        (old, now) -> {
          if (environment.containsProperty(old)) {
            throw new IllegalStateException(old + " was renamed " + now + ": set that instead");
          }
        });
  }

  @Bean
  EventAppender eventAppender(
      EventSink sink, IngestProperties properties, MeterRegistry meters, Ticker ticker) {
    return new EventAppender(sink, properties, meters, ticker, EventAppender.DEFAULT_WAIT);
  }

  @Bean
  EventIngest eventIngest(
      LiveItems liveItems,
      Bizes bizes,
      EventAppender appender,
      Clock clock,
      IngestProperties properties,
      MeterRegistry meters) {
    return new EventIngest(
        liveItems,
        bizes,
        appender,
        clock,
        EventIngest.duplicates(
            meters, properties.source().name().toLowerCase(java.util.Locale.ROOT)));
  }
}
