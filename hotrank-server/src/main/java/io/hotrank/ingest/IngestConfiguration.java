package io.hotrank.ingest;

import io.hotrank.item.Bizes;
import io.hotrank.item.CounterStore;
import io.hotrank.item.ItemCacheWrites;
import io.hotrank.item.ItemStore;
import io.hotrank.item.LiveItems;
import io.hotrank.job.FaultPoints;
import io.hotrank.storage.SqlDialect;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

/** The event path's beans. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IngestProperties.class)
class IngestConfiguration {

  @Bean
  EventLog eventLog(JdbcTemplate jdbc, SqlDialect dialect) {
    return new EventLog(jdbc, dialect);
  }

  @Bean
  LiveItems liveItems(ItemStore items, IngestProperties properties) {
    return new LiveItems(items, properties.itemCacheSize(), properties.itemCacheTtl());
  }

  @Bean
  EventAppender eventAppender(
      EventLog eventLog, IngestProperties properties, MeterRegistry meters, Ticker ticker) {
    return new EventAppender(eventLog, properties, meters, ticker);
  }

  @Bean
  EventIngest eventIngest(LiveItems liveItems, Bizes bizes, EventAppender appender, Clock clock) {
    return new EventIngest(liveItems, bizes, appender, clock);
  }

  @Bean
  EventFolder eventFolder(
      EventLog eventLog,
      CounterStore counters,
      JdbcTemplate jdbc,
      SqlDialect dialect,
      Clock clock,
      PlatformTransactionManager transactions,
      IngestProperties properties,
      FaultPoints faults) {
    return new EventFolder(
        eventLog,
        counters,
        new UserActionStore(jdbc, dialect),
        clock,
        transactions,
        properties,
        faults);
  }

  @Bean
  FoldJobs foldJobs(
      EventFolder folder,
      EventLog eventLog,
      List<FoldListener> listeners,
      Clock clock,
      Ticker ticker,
      IngestProperties properties,
      FaultPoints faults) {
    return new FoldJobs(folder, eventLog, listeners, clock, ticker, properties, faults);
  }

  @Bean
  @Order(Ordered.LOWEST_PRECEDENCE)
  CountsCacheWriter countsCacheWriter(ItemCacheWrites cacheWrites, FoldHistory history) {
    return new CountsCacheWriter(cacheWrites, history);
  }

  @Bean
  FoldHistory foldHistory(EventLog eventLog) {
    return new FoldHistory(eventLog);
  }
}
