package io.hotrank.storage;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Detects the database engine once, logs what was found and what it supports, and points Flyway at
 * that engine's migrations.
 */
@Configuration(proxyBeanMethods = false)
class StorageConfiguration {

  private static final Logger log = LoggerFactory.getLogger(StorageConfiguration.class);

  @Bean
  SqlDialect sqlDialect(DataSource dataSource) {
    return detect(dataSource);
  }

  @Bean
  FlywayConfigurationCustomizer hotrankMigrations(SqlDialect dialect) {
    return configuration -> configuration.locations(dialect.migrationLocation());
  }

  /**
   * Detects the engine behind a data source.
   *
   * @throws IllegalStateException for an engine hotrank does not support, or none reachable
   */
  static SqlDialect detect(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      DatabaseMetaData meta = connection.getMetaData();
      String product = meta.getDatabaseProductName();
      SqlDialect dialect =
          of(
              product,
              meta.getDatabaseProductVersion(),
              meta.getDatabaseMajorVersion(),
              meta.getDatabaseMinorVersion());
      log.info(
          "Database: {} {} ({} dialect; skip-locked={}, insert-ignoring-duplicates={}, upsert={},"
              + " returning={})",
          product,
          meta.getDatabaseProductVersion(),
          dialect.name(),
          dialect.supportsSkipLocked(),
          dialect.supportsInsertIgnoringDuplicates(),
          dialect.supportsUpsert(),
          dialect.supportsReturning());
      return dialect;
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot reach the database to detect its dialect", e);
    }
  }

  /**
   * The dialect of a JDBC product name and version. MySQL's driver reports a MariaDB server as
   * "MySQL" with "MariaDB" in the version, hence both are read.
   */
  static SqlDialect of(String productName, String productVersion, int major, int minor) {
    String product = productName.toLowerCase(Locale.ROOT);
    boolean mariaDb =
        product.contains("mariadb") || productVersion.toLowerCase(Locale.ROOT).contains("mariadb");
    if (product.contains("h2")) {
      return new H2Dialect();
    }
    if (product.contains("mysql") || mariaDb) {
      return MySqlDialect.of(mariaDb, major, minor);
    }
    if (product.contains("postgres")) {
      return new PostgresDialect();
    }
    throw new IllegalStateException(
        "Unsupported database '"
            + productName
            + "': hotrank supports H2, MySQL/MariaDB, PostgreSQL");
  }
}
