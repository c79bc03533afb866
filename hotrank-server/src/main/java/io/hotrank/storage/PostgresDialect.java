package io.hotrank.storage;

import java.util.List;
import java.util.OptionalLong;
import org.springframework.jdbc.core.JdbcOperations;

/**
 * PostgreSQL. A unique violation aborts the whole transaction here, so nothing may raise one on
 * purpose: duplicates are ignored in the statement ({@code ON CONFLICT}).
 */
record PostgresDialect() implements SqlDialect {

  @Override
  public String name() {
    return "PostgreSQL";
  }

  @Override
  public String migrationLocation() {
    return "classpath:db/migration/postgresql";
  }

  @Override
  public boolean supportsSkipLocked() {
    return true;
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
    return "INSERT INTO "
        + table
        + " ("
        + String.join(", ", columns)
        + ") "
        + select
        + " ON CONFLICT ("
        + String.join(", ", key)
        + ") DO UPDATE SET "
        + String.join(", ", updated.stream().map(c -> c + " = EXCLUDED." + c).toList());
  }

  @Override
  public boolean supportsReturning() {
    return true;
  }

  @Override
  public boolean supportsWritingCte() {
    return true;
  }

  @Override
  public boolean supportsUpdateReturning() {
    return true;
  }

  @Override
  public boolean supportsArrayParameters() {
    return true;
  }

  @Override
  public boolean supportsUnnest() {
    return true;
  }

  @Override
  public int insertIgnoringDuplicate(
      JdbcOperations jdbc, String table, String columns, Object... args) {
    return jdbc.update(
        SqlDialect.plainInsert(table, columns, args.length) + " ON CONFLICT DO NOTHING", args);
  }

  /**
   * The statement sets {@code synchronous_commit} off for its own (autocommitted) transaction:
   * {@code set_config(..., true)} lasts until the transaction ends, after its commit record is
   * written. The row is flushed with the next synchronous commit of any session (the log is
   * sequential), or within {@code wal_writer_delay}.
   */
  @Override
  public int insertIgnoringDuplicateUnflushed(
      JdbcOperations jdbc, String table, String columns, Object... args) {
    String values = String.join(", ", java.util.Collections.nCopies(args.length, "?"));
    return jdbc.update(
        "WITH unflushed AS (SELECT set_config('synchronous_commit', 'off', true))"
            + " INSERT INTO "
            + table
            + " ("
            + columns
            + ") SELECT "
            + values
            + " FROM unflushed ON CONFLICT DO NOTHING",
        args);
  }

  @Override
  public long takeNextInSequence(JdbcOperations jdbc, String table, String keyColumn, String key) {
    Long taken =
        jdbc.queryForObject(
            "INSERT INTO "
                + table
                + " ("
                + keyColumn
                + ", next_id) VALUES (?, 2) ON CONFLICT ("
                + keyColumn
                + ") DO UPDATE SET next_id = "
                + table
                + ".next_id + 1 RETURNING next_id - 1",
            Long.class,
            key);
    if (taken == null) {
      throw new IllegalStateException("sequence " + key + " of " + table + " returned no row");
    }
    return taken;
  }

  @Override
  public void raiseSequence(
      JdbcOperations jdbc, String table, String keyColumn, String key, long atLeast) {
    jdbc.update(
        "INSERT INTO "
            + table
            + " ("
            + keyColumn
            + ", next_id) VALUES (?, ?) ON CONFLICT ("
            + keyColumn
            + ") DO UPDATE SET next_id = GREATEST("
            + table
            + ".next_id, EXCLUDED.next_id)",
        key,
        atLeast);
  }

  @Override
  public String nowMillisOnce() {
    return "(SELECT " + nowMillis() + ")"; // an InitPlan: run once, its value a scan's bound
  }

  @Override
  public String nowMillis() {
    // clock_timestamp(), not CURRENT_TIMESTAMP: the latter is frozen at the transaction's start.
    return "CAST(EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000 AS BIGINT)";
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
    List<Long> value =
        jdbc.queryForList(
            SqlDialect.advanceUpdate(table, column, next, assignments, condition)
                + " RETURNING "
                + column,
            Long.class,
            args);
    return value.isEmpty() ? OptionalLong.empty() : OptionalLong.of(value.getFirst());
  }
}
