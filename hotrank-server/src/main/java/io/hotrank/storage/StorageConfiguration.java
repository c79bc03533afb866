package io.hotrank.storage;

import db.migration.V7__IndexItemTags;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.flywaydb.core.api.migration.JavaMigration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Detects the database engine once, logs what was found and what it supports, and points Flyway at
 * that engine's migrations and the Java ones shared by every engine.
 */
@Configuration(proxyBeanMethods = false)
class StorageConfiguration {

  private static final Logger log = LoggerFactory.getLogger(StorageConfiguration.class);

  /** major.minor of a MariaDB version text, after the "5.5.5-" prefix some servers send. */
  private static final Pattern MARIADB_VERSION = Pattern.compile("(?:^5\\.5\\.5-)?(\\d+)\\.(\\d+)");

  @Bean
  SqlDialect sqlDialect(DataSource dataSource) {
    return detect(dataSource);
  }

  @Bean
  FlywayConfigurationCustomizer hotrankMigrations(SqlDialect dialect) {
    return configuration -> configuration.locations(dialect.migrationLocation());
  }

  /**
   * The migrations written in Java, one class for every engine: outside the engine's location, so
   * handed to Flyway as beans.
   */
  @Bean
  JavaMigration indexItemTags() {
    return new V7__IndexItemTags();
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
    if (mariaDb) {
      // MySQL's driver reports a MariaDB server as version 5.5 ("5.5.5-10.11.6-MariaDB"): read the
      // real one from the version text.
      Matcher version = MARIADB_VERSION.matcher(productVersion);
      return version.find()
          ? MySqlDialect.of(
              true, Integer.parseInt(version.group(1)), Integer.parseInt(version.group(2)))
          : MySqlDialect.of(true, major, minor);
    }
    if (product.contains("mysql")) {
      return MySqlDialect.of(false, major, minor);
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
