package io.hotrank.ingest.log;

import io.hotrank.idempotency.IdempotentAnswers;
import io.hotrank.ingest.EventIngest;
import io.hotrank.ingest.EventSink;
import io.hotrank.ingest.EventSource;
import io.hotrank.ingest.IngestProperties;
import io.hotrank.ingest.fold.EventIds;
import io.hotrank.ingest.fold.FoldApplier;
import io.hotrank.ingest.fold.FoldListeners;
import io.hotrank.ingest.fold.FoldNumbers;
import io.hotrank.ingest.fold.FoldReader;
import io.hotrank.job.FaultPoints;
import io.hotrank.storage.SqlDialect;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The event log's beans. The log, its folder and its jobs exist whatever the source ({@code
 * event-log-prune} prunes the fold records of every source); the log is the source itself with
 * {@code hotrank.ingest.source=log}, the default.
 */
@Configuration(proxyBeanMethods = false)
class LogConfiguration {

  @Bean
  EventLog eventLog(JdbcTemplate jdbc, SqlDialect dialect, FoldNumbers numbers) {
    return new EventLog(jdbc, dialect, numbers);
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

  /** Folds of the log are read back from it whatever the source. */
  @Bean
  FoldReader logFoldReader(EventLog eventLog) {
    return new LogFoldReader(eventLog);
  }

  @Bean
  IngestStatus ingestStatus(EventLog eventLog, EventIngest ingest) {
    return new IngestStatus(eventLog, ingest::queuedEvents);
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
          EventIngest.duplicates(meters, LogSource.NAME));
    }

    @Bean
    EventSource logSource(EventSink logSink, FoldJobs jobs, IngestStatus status) {
      return LogSource.of(logSink, jobs, status);
    }
  }
}
