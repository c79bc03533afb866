package io.hotrank.storage;

import org.springframework.jdbc.core.JdbcOperations;

/** MySQL 8 and MariaDB 10.6 or newer: {@code INSERT IGNORE}, {@code ON DUPLICATE KEY UPDATE}. */
record MySqlDialect() implements SqlDialect {

  @Override
  public String name() {
    return "MySQL/MariaDB";
  }

  @Override
  public String migrationLocation() {
    // MySQL and MariaDB share one set of migrations, which Flyway's {vendor} cannot express.
    return "classpath:db/migration/mysql";
  }

  @Override
  public boolean supportsSkipLocked() {
    return true; // MySQL 8.0.1, MariaDB 10.6
  }

  @Override
  public boolean supportsInsertIgnoringDuplicates() {
    return true;
  }

  @Override
  public boolean supportsUpsert() {
    return true;
  }

  @Override
  public boolean supportsReturning() {
    return false; // MariaDB has INSERT ... RETURNING, MySQL has none
  }

  @Override
  public int insertIgnoringDuplicate(
      JdbcOperations jdbc, String table, String columns, Object... args) {
    return jdbc.update(
        "INSERT IGNORE INTO "
            + table
            + " ("
            + columns
            + ") VALUES ("
            + SqlDialect.placeholders(args.length)
            + ")",
        args);
  }

  @Override
  public long takeNextInSequence(JdbcOperations jdbc, String table, String keyColumn, String key) {
    // One statement: an INSERT IGNORE then UPDATE would take a shared lock first and deadlock
    // with a concurrent caller upgrading the same row.
    jdbc.update(
        "INSERT INTO "
            + table
            + " ("
            + keyColumn
            + ", next_id) VALUES (?, 2) ON DUPLICATE KEY UPDATE next_id = next_id + 1",
        key);
    return SqlDialect.lastTaken(jdbc, table, keyColumn, key);
  }

  @Override
  public void raiseSequence(
      JdbcOperations jdbc, String table, String keyColumn, String key, long atLeast) {
    jdbc.update(
        "INSERT INTO "
            + table
            + " ("
            + keyColumn
            + ", next_id) VALUES (?, ?)"
            + " ON DUPLICATE KEY UPDATE next_id = GREATEST(next_id, VALUES(next_id))",
        key,
        atLeast);
  }
}
