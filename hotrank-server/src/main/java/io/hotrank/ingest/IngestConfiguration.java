package io.hotrank.ingest;

import io.hotrank.idempotency.IdempotentAnswers;
import io.hotrank.ingest.fold.EventIds;
import io.hotrank.item.Bizes;
import io.hotrank.item.CounterStore;
import io.hotrank.item.ItemCacheWrites;
import io.hotrank.item.LiveItems;
import io.hotrank.job.FaultPoints;
import io.hotrank.storage.SqlDialect;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/** The event path's beans. */
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
  EventLog eventLog(JdbcTemplate jdbc, SqlDialect dialect) {
    return new EventLog(jdbc, dialect);
  }

  /** Events left out as duplicates of events accepted before, by source. */
  static Counter duplicates(MeterRegistry meters, String source) {
    return meters.counter("hotrank.ingest.events.duplicates", "source", source);
  }

  @Bean
  EventIds eventIds(JdbcTemplate jdbc, SqlDialect dialect) {
    return new EventIds(jdbc, dialect);
  }

  @Bean
  EventIdRetention eventIdRetention(EventIds ids, Clock clock, IngestProperties properties) {
    return new EventIdRetention(ids, clock, properties.dedupWindow());
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
        duplicates(meters, properties.source().name().toLowerCase(java.util.Locale.ROOT)));
  }

  @Bean
  EventFolder eventFolder(
      EventLog eventLog,
      FoldApplier applier,
      Clock clock,
      PlatformTransactionManager transactions,
      IngestProperties properties,
      FaultPoints faults) {
    return new EventFolder(eventLog, applier, clock, transactions, properties, faults);
  }

  @Bean
  FoldJobs foldJobs(
      EventFolder folder,
      EventLog eventLog,
      FoldListeners listeners,
      Clock clock,
      Ticker ticker,
      IngestProperties properties,
      FaultPoints faults) {
    return new FoldJobs(folder, eventLog, listeners, clock, ticker, properties, faults);
  }

  @Bean
  FoldListeners foldListeners(List<FoldListener> listeners) {
    return new FoldListeners(listeners);
  }

  @Bean
  FoldNumbers foldNumbers(EventLog eventLog) {
    return new FoldNumbers(eventLog);
  }

  @Bean
  FoldApplier foldApplier(CounterStore counters, JdbcTemplate jdbc, SqlDialect dialect) {
    return new FoldApplier(counters, new UserActionStore(jdbc, dialect));
  }

  @Bean
  @Order(Ordered.LOWEST_PRECEDENCE)
  CountsCacheWriter countsCacheWriter(ItemCacheWrites cacheWrites, FoldHistory history) {
    return new CountsCacheWriter(cacheWrites, history);
  }

  @Bean
  FoldHistory foldHistory(EventLog eventLog, ObjectProvider<EventSource> source) {
    return new FoldHistory(eventLog, source::getObject);
  }

  /** The event log as the source: the default, with {@code hotrank.ingest.source=log}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(
      name = "hotrank.ingest.source",
      havingValue = LogSource.NAME,
      matchIfMissing = true)
  static class LogSourceConfiguration {

    /** Accepted batches are appended to the event log. */
    @Bean
    EventSink logSink(
        EventLog eventLog,
        EventIds eventIds,
        IdempotentAnswers answers,
        PlatformTransactionManager transactions,
        JsonMapper json,
        Clock clock,
        MeterRegistry meters) {
      return new LogEventSink(
          eventLog,
          eventIds,
          answers,
          new TransactionTemplate(transactions),
          json,
          clock,
          duplicates(meters, "log"));
    }

    @Bean
    EventSource logSource(
        EventSink logSink, FoldJobs jobs, IngestStatus status, EventLog eventLog) {
      return new LogSource(logSink, jobs, status, eventLog);
    }
  }
}
