package io.hotrank.trust;

import io.hotrank.audit.AuditLog;
import io.hotrank.storage.SqlDialect;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The actors' beans. */
@Configuration(proxyBeanMethods = false)
class TrustConfiguration {

  @Bean
  ActorWeights actorWeights(JdbcTemplate jdbc, SqlDialect dialect, TrustProperties properties) {
    return ActorWeights.reading(jdbc, dialect, properties);
  }

  @Bean
  Actors actors(
      JdbcTemplate jdbc,
      SqlDialect dialect,
      AuditLog audit,
      PlatformTransactionManager transactions,
      Clock clock,
      FlagRetraction retraction) {
    return new Actors(
        new ActorStore(jdbc, dialect),
        audit,
        new TransactionTemplate(transactions),
        clock,
        retraction);
  }
}
