package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The task store. */
@Configuration(proxyBeanMethods = false)
class TaskConfiguration {

  @Bean
  TaskStore taskStore(
      JdbcTemplate jdbc,
      SqlDialect dialect,
      PlatformTransactionManager transactions,
      TaskProperties properties) {
    return new TaskStore(
        jdbc,
        dialect,
        new TransactionTemplate(transactions),
        properties.history(),
        properties.historyKeep());
  }
}
