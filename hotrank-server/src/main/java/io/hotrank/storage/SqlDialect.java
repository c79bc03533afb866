package io.hotrank.storage;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcOperations;

/**
 * What differs between the database engines hotrank supports, in one place. Everything else is
 * plain SQL that all three accept.
 */
public enum SqlDialect {
  H2("h2") {
    @Override
    public int insertIgnoringDuplicate(
        JdbcOperations jdbc, String table, String columns, Object... args) {
      // H2 has no INSERT IGNORE outside its compatibility modes, but unlike PostgreSQL a unique
      // violation leaves the transaction usable, so catching it is safe here.
      try {
        return jdbc.update(plainInsert(table, columns, args.length), args);
      } catch (DuplicateKeyException duplicate) {
        return 0;
      }
    }

    @Override
    public long takeNextInSequence(JdbcOperations jdbc, String table, String key) {
      // H2's MERGE is not atomic against a concurrent insert of the same key: the loser gets a
      // unique violation, which H2 (unlike PostgreSQL) survives; the row exists then, so the
      // second attempt updates it.
      for (int attempt = 1; ; attempt++) {
        try {
          jdbc.update(
              "MERGE INTO "
                  + table
                  + " t USING (VALUES (CAST(? AS VARCHAR(64)))) s(name)"
                  + " ON t."
                  + SEQUENCE_KEY
                  + " = s.name"
                  + " WHEN MATCHED THEN UPDATE SET next_id = t.next_id + 1"
                  + " WHEN NOT MATCHED THEN INSERT ("
                  + SEQUENCE_KEY
                  + ", next_id) VALUES (s.name, 2)",
              key);
          return current(jdbc, table, key);
        } catch (DuplicateKeyException raced) {
          if (attempt == 3) {
            throw raced;
          }
        }
      }
    }

    @Override
    public void raiseSequence(JdbcOperations jdbc, String table, String key, long atLeast) {
      jdbc.update(
          "MERGE INTO "
              + table
              + " t USING (VALUES (CAST(? AS VARCHAR(64)), CAST(? AS BIGINT)))"
              + " s(name, floor) ON t."
              + SEQUENCE_KEY
              + " = s.name"
              + " WHEN MATCHED THEN UPDATE SET next_id = GREATEST(t.next_id, s.floor)"
              + " WHEN NOT MATCHED THEN INSERT ("
              + SEQUENCE_KEY
              + ", next_id) VALUES (s.name, s.floor)",
          key,
          atLeast);
    }
  },
  MYSQL("mysql") {
    @Override
    public int insertIgnoringDuplicate(
        JdbcOperations jdbc, String table, String columns, Object... args) {
      return jdbc.update(
          "INSERT IGNORE INTO "
              + table
              + " ("
              + columns
              + ") VALUES ("
              + placeholders(args.length)
              + ")",
          args);
    }

    @Override
    public long takeNextInSequence(JdbcOperations jdbc, String table, String key) {
      // One statement: an INSERT IGNORE then UPDATE would take a shared lock first and deadlock
      // with a concurrent caller upgrading the same row.
      jdbc.update(
          "INSERT INTO "
              + table
              + " ("
              + SEQUENCE_KEY
              + ", next_id) VALUES (?, 2)"
              + " ON DUPLICATE KEY UPDATE next_id = next_id + 1",
          key);
      return current(jdbc, table, key);
    }

    @Override
    public void raiseSequence(JdbcOperations jdbc, String table, String key, long atLeast) {
      jdbc.update(
          "INSERT INTO "
              + table
              + " ("
              + SEQUENCE_KEY
              + ", next_id) VALUES (?, ?)"
              + " ON DUPLICATE KEY UPDATE next_id = GREATEST(next_id, VALUES(next_id))",
          key,
          atLeast);
    }
  },
  POSTGRESQL("postgresql") {
    @Override
    public int insertIgnoringDuplicate(
        JdbcOperations jdbc, String table, String columns, Object... args) {
      // A unique violation would abort the whole PostgreSQL transaction: never raise one.
      return jdbc.update(
          plainInsert(table, columns, args.length) + " ON CONFLICT DO NOTHING", args);
    }

    @Override
    public long takeNextInSequence(JdbcOperations jdbc, String table, String key) {
      Long taken =
          jdbc.queryForObject(
              "INSERT INTO "
                  + table
                  + " ("
                  + SEQUENCE_KEY
                  + ", next_id)"
                  + " VALUES (?, 2) ON CONFLICT ("
                  + SEQUENCE_KEY
                  + ") DO UPDATE SET next_id = "
                  + table
                  + ".next_id + 1 RETURNING next_id - 1",
              Long.class,
              key);
      return taken;
    }

    @Override
    public void raiseSequence(JdbcOperations jdbc, String table, String key, long atLeast) {
      jdbc.update(
          "INSERT INTO "
              + table
              + " ("
              + SEQUENCE_KEY
              + ", next_id) VALUES (?, ?)"
              + " ON CONFLICT ("
              + SEQUENCE_KEY
              + ") DO UPDATE SET next_id = GREATEST("
              + table
              + ".next_id, EXCLUDED.next_id)",
          key,
          atLeast);
    }
  };

  /** The key column of sequence tables ({@code hr_id_sequence}). */
  private static final String SEQUENCE_KEY = "biz";

  private final String migrationFolder;

  SqlDialect(String migrationFolder) {
    this.migrationFolder = migrationFolder;
  }

  /** The Flyway location holding this engine's migrations. */
  public String migrationLocation() {
    return "classpath:db/migration/" + migrationFolder;
  }

  /**
   * Inserts one row, or nothing when a row with the same primary key exists, without failing the
   * surrounding transaction.
   *
   * @param table the table, a constant of the caller
   * @param columns comma-separated column list, a constant of the caller
   * @param args one bound value per column
   * @return 1 if the row was inserted, 0 if it existed
   */
  public abstract int insertIgnoringDuplicate(
      JdbcOperations jdbc, String table, String columns, Object... args);

  /**
   * Takes the next value of a named sequence row ({@code key, next_id}), creating the row at 1 when
   * absent, in one atomic step that concurrent callers cannot both win. Must run inside a
   * transaction.
   *
   * @return the value taken
   */
  public abstract long takeNextInSequence(JdbcOperations jdbc, String table, String key);

  /**
   * Makes the next value of a named sequence row at least {@code atLeast}, creating the row when
   * absent. Must run inside a transaction.
   */
  public abstract void raiseSequence(JdbcOperations jdbc, String table, String key, long atLeast);

  private static long current(JdbcOperations jdbc, String table, String key) {
    Long next =
        jdbc.queryForObject(
            "SELECT next_id FROM " + table + " WHERE " + SEQUENCE_KEY + " = ?", Long.class, key);
    return next - 1;
  }

  /**
   * Detects the engine behind a data source.
   *
   * @throws IllegalStateException for an engine hotrank does not support
   */
  public static SqlDialect of(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
      if (product.contains("h2")) {
        return H2;
      }
      if (product.contains("mysql") || product.contains("mariadb")) {
        return MYSQL;
      }
      if (product.contains("postgres")) {
        return POSTGRESQL;
      }
      throw new IllegalStateException(
          "Unsupported database '" + product + "': hotrank supports H2, MySQL/MariaDB, PostgreSQL");
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot reach the database to detect its dialect", e);
    }
  }

  private static String plainInsert(String table, String columns, int arity) {
    return "INSERT INTO " + table + " (" + columns + ") VALUES (" + placeholders(arity) + ")";
  }

  private static String placeholders(int arity) {
    return String.join(", ", Collections.nCopies(arity, "?"));
  }
}
