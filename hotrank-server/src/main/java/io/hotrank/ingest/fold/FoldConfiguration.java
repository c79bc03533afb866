package io.hotrank.ingest.fold;

import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.FoldListener;
import io.hotrank.ingest.IngestProperties;
import io.hotrank.item.CounterStore;
import io.hotrank.item.ItemCacheWrites;
import io.hotrank.job.JobSource;
import io.hotrank.job.PruneJob;
import io.hotrank.storage.SqlDialect;
import io.hotrank.trust.ActorWeights;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.JdbcTemplate;

/** What every source folds with: the counters, the fold numbers, the listeners, the event ids. */
@Configuration(proxyBeanMethods = false)
class FoldConfiguration {

  @Bean
  FoldNumbers foldNumbers(JdbcTemplate jdbc, SqlDialect dialect) {
    return new FoldNumbers(jdbc, dialect);
  }

  @Bean
  UserActionStore userActionStore(JdbcTemplate jdbc, SqlDialect dialect) {
    return new UserActionStore(jdbc, dialect);
  }

  @Bean
  FoldApplier foldApplier(CounterStore counters, UserActionStore actions, ActorWeights weights) {
    return new FoldApplier(counters, actions, weights);
  }

  @Bean
  ActorRetraction actorRetraction(
      CounterStore counters,
      UserActionStore actions,
      FoldNumbers numbers,
      FoldListeners listeners,
      IngestProperties properties) {
    return new ActorRetraction(
        counters, actions, numbers, listeners, properties.source() == IngestProperties.Source.LOG);
  }

  @Bean
  FoldReader retractionFoldReader() {
    return new ActorRetraction.Reader();
  }

  @Bean
  FoldListeners foldListeners(List<FoldListener> listeners) {
    return new FoldListeners(listeners);
  }

  @Bean
  FoldHistory foldHistory(FoldNumbers numbers, List<FoldReader> readers) {
    return new RecordedFolds(numbers, readers);
  }

  @Bean
  @Order(Ordered.LOWEST_PRECEDENCE)
  CountsCacheWriter countsCacheWriter(ItemCacheWrites cacheWrites, FoldHistory history) {
    return new CountsCacheWriter(cacheWrites, history);
  }

  @Bean
  EventIds eventIds(JdbcTemplate jdbc, SqlDialect dialect) {
    return new EventIds(jdbc, dialect);
  }

  /**
   * {@code event-id-prune}: every hour (minute 29), under its lease, deletes the event ids older
   * than {@code hotrank.ingest.dedup-window}.
   */
  @Bean
  JobSource eventIdPrune(EventIds ids, Clock clock, IngestProperties properties) {
    Duration window = properties.dedupWindow();
    return new PruneJob(
            "event-id-prune",
            "event ids older than " + window,
            5000,
            () -> clock.millis() - window.toMillis(),
            ids::prune)
        .hourlySource(29);
  }
}
