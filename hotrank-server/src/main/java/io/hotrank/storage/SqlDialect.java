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
    public int insertIgnoringDuplicate(JdbcOperations jdbc, String table, String columns, Object... args) {
      // H2 has no INSERT IGNORE outside its compatibility modes, but unlike PostgreSQL a unique
      // violation leaves the transaction usable, so catching it is safe here.
      try {
        return jdbc.update(plainInsert(table, columns, args.length), args);
      } catch (DuplicateKeyException duplicate) {
        return 0;
      }
    }
  },
  MYSQL("mysql") {
    @Override
    public int insertIgnoringDuplicate(JdbcOperations jdbc, String table, String columns, Object... args) {
      return jdbc.update(
          "INSERT IGNORE INTO " + table + " (" + columns + ") VALUES (" + placeholders(args.length) + ")",
          args);
    }
  },
  POSTGRESQL("postgresql") {
    @Override
    public int insertIgnoringDuplicate(JdbcOperations jdbc, String table, String columns, Object... args) {
      // A unique violation would abort the whole PostgreSQL transaction: never raise one.
      return jdbc.update(plainInsert(table, columns, args.length) + " ON CONFLICT DO NOTHING", args);
    }
  };

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
