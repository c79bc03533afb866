package db.migration;

import com.zaxxer.hikari.HikariConfig;
import io.hotrank.support.TestDatabase;
import org.jspecify.annotations.Nullable;

/** The tag index backfill on H2: a fresh in-memory database per test. */
class H2IndexItemTagsMigrationTest extends IndexItemTagsMigrationContract {

  @Override
  TestDatabase database() {
    return TestDatabase.H2;
  }

  @Override
  HikariConfig connectTo(String schema) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:h2:mem:" + schema);
    config.setUsername(database().user());
    config.setPassword(database().password());
    return config;
  }

  @Override
  @Nullable String useSchema(String schema) {
    return null;
  }

  @Override
  void createSchema() {}

  @Override
  void dropSchema() {
    // An in-memory database is gone with its last connection, closed with the pool.
  }
}
