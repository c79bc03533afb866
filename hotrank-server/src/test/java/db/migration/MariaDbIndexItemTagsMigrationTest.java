package db.migration;

import io.hotrank.support.TestDatabase;

/**
 * The tag index backfill on MariaDB or MySQL ({@code HOTRANK_TEST_MYSQL_URL}), in a database of its
 * own beside the configured one (the user must be allowed to create databases).
 */
class MariaDbIndexItemTagsMigrationTest extends IndexItemTagsMigrationContract {

  @Override
  TestDatabase database() {
    return TestDatabase.MARIADB;
  }

  @Override
  String useSchema(String schema) {
    return "USE " + schema;
  }

  @Override
  void createSchema() {
    admin().execute("CREATE DATABASE " + schema);
  }

  @Override
  void dropSchema() {
    admin().execute("DROP DATABASE IF EXISTS " + schema);
  }
}
