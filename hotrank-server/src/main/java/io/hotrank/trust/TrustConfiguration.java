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
  Actors actors(
      JdbcTemplate jdbc,
      SqlDialect dialect,
      AuditLog audit,
      PlatformTransactionManager transactions,
      Clock clock) {
    return new Actors(
        new ActorStore(jdbc, dialect), audit, new TransactionTemplate(transactions), clock);
  }
}
