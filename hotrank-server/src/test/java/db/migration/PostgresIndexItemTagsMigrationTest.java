package db.migration;

import io.hotrank.support.TestDatabase;

/**
 * The tag index backfill on PostgreSQL ({@code HOTRANK_TEST_POSTGRES_URL}), in a schema of its own
 * in the configured database.
 */
class PostgresIndexItemTagsMigrationTest extends IndexItemTagsMigrationContract {

  @Override
  TestDatabase database() {
    return TestDatabase.POSTGRES;
  }

  @Override
  String useSchema(String schema) {
    return "SET search_path TO " + schema;
  }

  @Override
  void createSchema() {
    admin().execute("CREATE SCHEMA " + schema);
  }

  @Override
  void dropSchema() {
    admin().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }
}
