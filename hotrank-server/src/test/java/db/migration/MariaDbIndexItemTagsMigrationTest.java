package db.migration;

import com.zaxxer.hikari.HikariConfig;
import io.hotrank.support.TestEngines;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The tag index backfill on MariaDB or MySQL ({@code HOTRANK_TEST_MYSQL_URL}), in a database of its
 * own beside the configured one (the user must be allowed to create databases).
 */
@EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_MYSQL_URL", matches = ".+")
class MariaDbIndexItemTagsMigrationTest extends IndexItemTagsMigrationContract {

  private static final String URL = TestEngines.env("HOTRANK_TEST_MYSQL_URL").orElse("");
  private static final String USER = TestEngines.env("HOTRANK_TEST_MYSQL_USER").orElse("root");
  private static final String PASSWORD = TestEngines.env("HOTRANK_TEST_MYSQL_PASSWORD").orElse("");

  @Override
  String engine() {
    return "MariaDB/MySQL";
  }

  @Override
  String location() {
    return "classpath:db/migration/mysql";
  }

  @Override
  HikariConfig connectTo(String schema) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(URL);
    config.setUsername(USER);
    config.setPassword(PASSWORD);
    config.setConnectionInitSql("USE " + schema);
    return config;
  }

  @Override
  void createSchema() {
    admin().execute("CREATE DATABASE " + schema);
  }

  @Override
  void dropSchema() {
    admin().execute("DROP DATABASE IF EXISTS " + schema);
  }

  private static JdbcTemplate admin() {
    return new JdbcTemplate(new DriverManagerDataSource(URL, USER, PASSWORD));
  }
}
