package db.migration;

import com.zaxxer.hikari.HikariConfig;
import io.hotrank.support.TestEngines;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The tag index backfill on PostgreSQL ({@code HOTRANK_TEST_POSTGRES_URL}), in a schema of its own
 * in the configured database.
 */
@EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_POSTGRES_URL", matches = ".+")
class PostgresIndexItemTagsMigrationTest extends IndexItemTagsMigrationContract {

  private static final String URL = TestEngines.env("HOTRANK_TEST_POSTGRES_URL").orElse("");
  private static final String USER =
      TestEngines.env("HOTRANK_TEST_POSTGRES_USER").orElse("postgres");
  private static final String PASSWORD =
      TestEngines.env("HOTRANK_TEST_POSTGRES_PASSWORD").orElse("");

  @Override
  String engine() {
    return "PostgreSQL";
  }

  @Override
  String location() {
    return "classpath:db/migration/postgresql";
  }

  @Override
  HikariConfig connectTo(String schema) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(URL);
    config.setUsername(USER);
    config.setPassword(PASSWORD);
    config.setConnectionInitSql("SET search_path TO " + schema);
    return config;
  }

  @Override
  void createSchema() {
    admin().execute("CREATE SCHEMA " + schema);
  }

  @Override
  void dropSchema() {
    admin().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  private static JdbcTemplate admin() {
    return new JdbcTemplate(new DriverManagerDataSource(URL, USER, PASSWORD));
  }
}
