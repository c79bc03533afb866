package io.hotrank.storage;

import javax.sql.DataSource;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the database dialect and points Flyway at the migrations for the engine in use. */
@Configuration(proxyBeanMethods = false)
class StorageConfiguration {

  @Bean
  SqlDialect sqlDialect(DataSource dataSource) {
    return SqlDialect.of(dataSource);
  }

  /** MySQL and MariaDB share one set of migrations, which Flyway's {vendor} cannot express. */
  @Bean
  FlywayConfigurationCustomizer hotrankMigrations(DataSource dataSource) {
    return configuration -> configuration.locations(SqlDialect.of(dataSource).migrationLocation());
  }
}
