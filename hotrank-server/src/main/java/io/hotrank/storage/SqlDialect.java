package io.hotrank.storage;

import db.migration.V7__IndexItemTags;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.springframework.jdbc.core.JdbcOperations;

/**
 * What differs between the database engines hotrank supports, in one place: capability queries that
 * callers may branch on, and the few statements that no single SQL text serves on all three.
 * Detected once at startup ({@link StorageConfiguration}); one implementation per engine. Stateless
 * and thread-safe.
 */
public sealed interface SqlDialect permits H2Dialect, MySqlDialect, PostgresDialect {

  /**
   * Detects the engine behind a data source, as the application does at start (for tools outside
   * the application, such as benchmarks).
   *
   * @throws IllegalStateException for an engine hotrank does not support, or none reachable
   */
  static SqlDialect detect(javax.sql.DataSource dataSource) {
    return StorageConfiguration.detect(dataSource);
  }

  /** The engine's name as logged and reported, for example {@code PostgreSQL}. */
  String name();

  /** The Flyway location holding this engine's migrations. */
  String migrationLocation();

  /**
   * Flyway for a database of this engine outside the service (tests, benchmarks): the engine's SQL
   * migrations and the Java ones every engine shares, which the service hands Flyway as beans.
   * Without the Java ones, a database the service migrated fails validation ("applied migration not
   * resolved locally").
   */
  default FluentConfiguration flyway(DataSource dataSource) {
    return Flyway.configure()
        .dataSource(dataSource)
        .locations(migrationLocation())
        .javaMigrations(new V7__IndexItemTags());
  }

  /**
   * Whether {@code SELECT ... FOR UPDATE SKIP LOCKED} is available, so that concurrent claimers
   * pass over each other's rows instead of waiting.
   */
  boolean supportsSkipLocked();

  /**
   * Whether an insert can ignore a duplicate key in the statement itself ({@code ON CONFLICT DO
   * NOTHING}, {@code INSERT IGNORE}) rather than by catching the violation.
   */
  boolean supportsInsertIgnoringDuplicates();

  /** Whether an insert-or-update can be one statement. */
  boolean supportsUpsert();

  /**
   * One statement that inserts the rows {@code select} gives into {@code table} ({@code columns},
   * in order), overwriting the {@code updated} columns of a row whose {@code key} exists.
   */
  String upsertFromSelect(
      String table, List<String> columns, List<String> key, List<String> updated, String select);

  /** Whether a data-changing statement can return columns ({@code RETURNING}). */
  boolean supportsReturning();

  /**
   * Whether a {@code WITH} clause may hold an {@code UPDATE ... RETURNING} whose rows the statement
   * that follows reads ({@code WITH done AS (UPDATE ... RETURNING ...) INSERT ... SELECT ... FROM
   * done}): two writes in one statement, one round trip and one commit.
   */
  default boolean supportsWritingCte() {
    return false;
  }

  /**
   * Whether an {@code UPDATE} can return the rows it changed ({@code UPDATE ... RETURNING}) and
   * hold in its {@code WHERE} a locking subquery on its own table, run once ({@code name =
   * ANY(ARRAY(SELECT name ... LIMIT n FOR UPDATE SKIP LOCKED))}): a batch claimed in one statement.
   */
  default boolean supportsUpdateReturning() {
    return false;
  }

  /**
   * Whether a set of composite keys is best asked for as row values, {@code (a, b) IN ((?, ?),
   * ...)}: H2 looks each row value up in the index, but for {@code a = ? AND b IN (...)} it scans
   * every row of {@code a} and compares each with the whole list.
   */
  default boolean indexesRowValueIn() {
    return false;
  }

  /**
   * Whether a {@code Long[]} binds as an array parameter that {@code column = ANY(?)} reads with
   * index lookups: a set of keys in one parameter and one plan whatever its size, where a list of
   * placeholders costs a plan per length (and H2 compares each row with the whole list).
   */
  default boolean supportsArrayParameters() {
    return false;
  }

  /**
   * Whether arrays can be read as rows, {@code unnest(?::bigint[], ?::bigint[]) AS p(a, b)}, in a
   * {@code CROSS JOIN LATERAL} or an {@code UPDATE ... FROM}: a set of composite keys probed in an
   * index, or of rows to update, in one statement.
   */
  default boolean supportsUnnest() {
    return false;
  }

  /**
   * Makes what this session committed survive the process being killed. Most engines do so at
   * commit (PostgreSQL and InnoDB write their log at commit by default); H2 writes committed
   * changes to its file from a background thread up to a second later, so it is asked to write them
   * now.
   */
  default void makeCommitsDurable(JdbcOperations jdbc) {}

  /**
   * Inserts one row, or nothing when a row with the same key exists, without failing the
   * surrounding transaction.
   *
   * @param table the table, a constant of the caller
   * @param columns comma-separated column list, a constant of the caller
   * @param args one bound value per column
   * @return 1 if the row was inserted, 0 if it existed
   */
  int insertIgnoringDuplicate(JdbcOperations jdbc, String table, String columns, Object... args);

  /**
   * As {@link #insertIgnoringDuplicate}, autocommitted, without waiting for the commit to be made
   * durable where the engine allows it per transaction (PostgreSQL): for a row whose loss in a
   * crash is harmless unless a later, durable commit that depends on it is lost too, which cannot
   * happen since a database's log is flushed in order. Elsewhere the same as {@link
   * #insertIgnoringDuplicate}.
   */
  default int insertIgnoringDuplicateUnflushed(
      JdbcOperations jdbc, String table, String columns, Object... args) {
    return insertIgnoringDuplicate(jdbc, table, columns, args);
  }

  /**
   * Takes the next value of a named sequence row ({@code <key column>, next_id}), creating the row
   * at 1 when absent, in one atomic step that concurrent callers cannot both win. Must run inside a
   * transaction.
   *
   * @param table the sequence table, a constant of the caller
   * @param keyColumn the table's key column, a constant of the caller
   * @return the value taken
   */
  long takeNextInSequence(JdbcOperations jdbc, String table, String keyColumn, String key);

  /**
   * Makes the next value of a named sequence row at least {@code atLeast}, creating the row when
   * absent. Must run inside a transaction.
   */
  void raiseSequence(JdbcOperations jdbc, String table, String keyColumn, String key, long atLeast);

  /**
   * A SQL expression for the database server's current time in epoch milliseconds (UTC), whatever
   * the session time zone: what every lease and heartbeat comparison uses, so that instances whose
   * clocks disagree still agree on time.
   */
  String nowMillis();

  /**
   * {@link #nowMillis()}, read once per statement, so that a comparison with it can bound an index
   * scan: PostgreSQL's clock is volatile, read again for every row, and a comparison with it is
   * then a filter over every row the scan reads (20,000 rows and 12 ms for the task poller's
   * look-ahead, against 0.1 ms as a bound). MySQL/MariaDB and H2 read their clock once per
   * statement anyway.
   */
  default String nowMillisOnce() {
    return nowMillis();
  }

  /** Reads the database server's current time in epoch milliseconds ({@link #nowMillis()}). */
  default long readNow(JdbcOperations jdbc) {
    Long millis = jdbc.queryForObject("SELECT " + nowMillis(), Long.class);
    if (millis == null) {
      throw new IllegalStateException("the database returned no time");
    }
    return millis;
  }

  /**
   * Runs {@code UPDATE <table> SET <column> = <column> + 1, <assignments> WHERE <condition>} on at
   * most one row and returns the incremented value, in one round trip ({@code RETURNING} on
   * PostgreSQL, a data change delta table on H2, {@code LAST_INSERT_ID(expr)} on MySQL and MariaDB,
   * whose {@code UPDATE} returns no columns).
   *
   * @param table the table, a constant of the caller
   * @param column a BIGINT column, a constant of the caller
   * @param assignments further assignments, a constant of the caller with placeholders
   * @param condition the WHERE condition, a constant of the caller with placeholders; must match at
   *     most one row
   * @param args the values bound to the placeholders of {@code assignments} then {@code condition}
   * @return the new value, or empty if no row matched
   */
  java.util.OptionalLong advanceWhere(
      JdbcOperations jdbc,
      String table,
      String column,
      String next,
      String assignments,
      String condition,
      Object... args);

  /** {@code UPDATE <table> SET <column> = <next>, <assignments> WHERE <condition>}. */
  static String advanceUpdate(
      String table, String column, String increment, String assignments, String condition) {
    return "UPDATE "
        + table
        + " SET "
        + column
        + " = "
        + increment
        + ", "
        + assignments
        + " WHERE "
        + condition;
  }

  /** {@code INSERT INTO <table> (<columns>) VALUES (?, ...)} with one placeholder per value. */
  static String plainInsert(String table, String columns, int arity) {
    return "INSERT INTO " + table + " (" + columns + ") VALUES (" + placeholders(arity) + ")";
  }

  /** {@code ?, ?, ...}: {@code arity} placeholders. */
  static String placeholders(int arity) {
    return String.join(", ", Collections.nCopies(arity, "?"));
  }

  /**
   * A condition on some ids of one biz, {@code biz = ? AND id IN (...)}, written as this engine
   * answers it from the (biz, id) key: as row values where {@link #indexesRowValueIn()}, with one
   * array where {@link #supportsArrayParameters()}, else with a placeholder per id. Appends its
   * arguments to {@code args}.
   *
   * @param bizColumn the biz column, qualified as the statement needs
   * @param idColumn the id column, qualified as the statement needs
   */
  default String bizIdsIn(
      String bizColumn, String idColumn, String biz, Collection<Long> ids, List<Object> args) {
    if (indexesRowValueIn()) {
      for (Long id : ids) {
        args.add(biz);
        args.add(id);
      }
      return "("
          + bizColumn
          + ", "
          + idColumn
          + ") IN ("
          + String.join(", ", Collections.nCopies(ids.size(), "(?, ?)"))
          + ")";
    }
    args.add(biz);
    if (supportsArrayParameters()) {
      args.add(ids.toArray(Long[]::new));
      return bizColumn + " = ? AND " + idColumn + " = ANY(?)";
    }
    args.addAll(ids);
    return bizColumn + " = ? AND " + idColumn + " IN (" + placeholders(ids.size()) + ")";
  }

  /** The value a sequence row hands out next, minus one: what the last taker took. */
  static long lastTaken(JdbcOperations jdbc, String table, String keyColumn, String key) {
    Long next =
        jdbc.queryForObject(
            "SELECT next_id FROM " + table + " WHERE " + keyColumn + " = ?", Long.class, key);
    if (next == null) {
      throw new IllegalStateException("sequence row " + key + " of " + table + " has no next_id");
    }
    return next - 1;
  }
}
