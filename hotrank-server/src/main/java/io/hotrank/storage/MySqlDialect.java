package io.hotrank.storage;

import org.springframework.jdbc.core.JdbcOperations;

/**
 * MySQL and MariaDB: {@code INSERT IGNORE}, {@code ON DUPLICATE KEY UPDATE}. What differs between
 * them and between their versions is decided from the server's name and version at detection.
 *
 * @param mariaDb whether the server is MariaDB rather than MySQL
 * @param supportsSkipLocked MySQL 8.0 or newer, MariaDB 10.6 or newer
 * @param supportsReturning MariaDB 10.5 or newer ({@code INSERT ... RETURNING}); MySQL has none
 */
record MySqlDialect(boolean mariaDb, boolean supportsSkipLocked, boolean supportsReturning)
    implements SqlDialect {

  /** The dialect of a server by its name and version. */
  static MySqlDialect of(boolean mariaDb, int major, int minor) {
    if (mariaDb) {
      return new MySqlDialect(
          true,
          major > 10 || (major == 10 && minor >= 6),
          major > 10 || (major == 10 && minor >= 5));
    }
    return new MySqlDialect(false, major >= 8, false);
  }

  @Override
  public String name() {
    return mariaDb ? "MariaDB" : "MySQL";
  }

  @Override
  public String migrationLocation() {
    // MySQL and MariaDB share one set of migrations, which Flyway's {vendor} cannot express.
    return "classpath:db/migration/mysql";
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
