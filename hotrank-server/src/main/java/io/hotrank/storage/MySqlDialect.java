package io.hotrank.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalLong;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;

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
  public String upsertFromSelect(
      String table, List<String> columns, List<String> key, List<String> updated, String select) {
    // VALUES(c): the row that would have been inserted (deprecated in MySQL 8.0.20, still read).
    return "INSERT INTO "
        + table
        + " ("
        + String.join(", ", columns)
        + ") "
        + select
        + " ON DUPLICATE KEY UPDATE "
        + String.join(", ", updated.stream().map(c -> c + " = VALUES(" + c + ")").toList());
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

  @Override
  public String nowMillis() {
    // UTC_TIMESTAMP, not NOW(): independent of the session time zone and its DST transitions.
    return "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(3)) DIV 1000)";
  }

  @Override
  public OptionalLong advanceWhere(
      JdbcOperations jdbc,
      String table,
      String column,
      String next,
      String assignments,
      String condition,
      Object... args) {
    // LAST_INSERT_ID(expr) stores the new value in the connection's last insert id, which the
    // server sends back in the statement's OK packet: the driver's generated key, no second query.
    String sql =
        SqlDialect.advanceUpdate(
            table, column, "LAST_INSERT_ID(" + next + ")", assignments, condition);
    Long value =
        jdbc.execute(
            (Connection c) -> c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS),
            (PreparedStatement statement) -> {
              for (int i = 0; i < args.length; i++) {
                StatementCreatorUtils.setParameterValue(
                    statement, i + 1, SqlTypeValue.TYPE_UNKNOWN, args[i]);
              }
              if (statement.executeUpdate() != 1) {
                return null;
              }
              try (ResultSet keys = statement.getGeneratedKeys()) {
                if (!keys.next()) {
                  throw new IllegalStateException("no LAST_INSERT_ID after UPDATE of " + table);
                }
                return keys.getLong(1);
              }
            });
    return value == null ? OptionalLong.empty() : OptionalLong.of(value);
  }
}
