package io.hotrank.review;

import io.hotrank.audit.AuditLog;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSink;
import io.hotrank.board.RepublishRetries;
import io.hotrank.ingest.Engagement;
import io.hotrank.item.CounterPages;
import io.hotrank.item.ItemCards;
import io.hotrank.storage.SqlDialect;
import io.hotrank.trust.Actors;
import io.hotrank.trust.TrustProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

/** Review's beans, and the queue's gauge. */
@Configuration(proxyBeanMethods = false)
class ReviewConfiguration {

  @Bean
  ReviewStore reviewStore(JdbcTemplate jdbc, SqlDialect dialect) {
    return new ReviewStore(jdbc, dialect);
  }

  @Bean
  ReviewHolds reviewHolds(
      ReviewStore store,
      ItemCards items,
      Engagement engagement,
      Actors actors,
      TrustProperties trust,
      ReviewProperties properties) {
    return new ReviewHolds(
        store, new Suspicion(items, engagement, actors, trust, properties), properties);
  }

  @Bean
  ReviewService reviewService(
      ReviewStore store,
      ReviewHolds holds,
      BoardRegistry registry,
      BoardSink publisher,
      ItemCards items,
      AuditLog audit,
      PlatformTransactionManager transactions,
      Clock clock,
      MeterRegistry meters,
      CounterPages counters,
      RepublishRetries retries) {
    ReviewService service =
        new ReviewService(
            store,
            holds,
            registry,
            publisher,
            items,
            audit,
            transactions,
            clock,
            meters,
            counters,
            retries);
    // Read at each scrape: one count over a small table; NaN while the database is down.
    Gauge.builder(
            "hotrank.review.queue",
            service,
            s -> {
              try {
                return s.queued();
              } catch (RuntimeException e) {
                return Double.NaN;
              }
            })
        .description("Distinct items waiting in the review queue, on every board")
        .register(meters);
    return service;
  }
}
