package io.hotrank.storage;

import java.util.List;
import java.util.OptionalLong;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcOperations;

/**
 * H2 (the embedded default). No {@code INSERT IGNORE} or {@code ON CONFLICT} outside its
 * compatibility modes, and {@code MERGE} is not atomic against a concurrent insert; but unlike
 * PostgreSQL a unique violation leaves the transaction usable, so catching it is safe here.
 */
record H2Dialect() implements SqlDialect {

  @Override
  public String name() {
    return "H2";
  }

  @Override
  public String migrationLocation() {
    return "classpath:db/migration/h2";
  }

  /** H2 2.4, the version the service ships, has it. */
  @Override
  public boolean supportsSkipLocked() {
    return true;
  }

  @Override
  public boolean supportsInsertIgnoringDuplicates() {
    return false;
  }

  @Override
  public boolean supportsUpsert() {
    return true; // MERGE, though not atomic against a concurrent insert of the same key
  }

  @Override
  public String upsertFromSelect(
      String table, List<String> columns, List<String> key, List<String> updated, String select) {
    // MERGE ... KEY overwrites every column of a matching row; updated is all but the key here.
    return "MERGE INTO "
        + table
        + " ("
        + String.join(", ", columns)
        + ") KEY ("
        + String.join(", ", key)
        + ") "
        + select;
  }

  @Override
  public boolean supportsReturning() {
    return false;
  }

  @Override
  public boolean indexesRowValueIn() {
    return true;
  }

  /** CHECKPOINT writes the store's committed changes to its file (it needs admin rights). */
  @Override
  public void makeCommitsDurable(JdbcOperations jdbc) {
    jdbc.execute("CHECKPOINT");
  }

  @Override
  public int insertIgnoringDuplicate(
      JdbcOperations jdbc, String table, String columns, Object... args) {
    try {
      return jdbc.update(SqlDialect.plainInsert(table, columns, args.length), args);
    } catch (DuplicateKeyException duplicate) {
      return 0;
    }
  }

  @Override
  public long takeNextInSequence(JdbcOperations jdbc, String table, String keyColumn, String key) {
    mergeCreatingRow(
        () ->
            jdbc.update(
                "MERGE INTO "
                    + table
                    + " t USING (VALUES (CAST(? AS VARCHAR(64)))) s(name) ON t."
                    + keyColumn
                    + " = s.name WHEN MATCHED THEN UPDATE SET next_id = t.next_id + 1"
                    + " WHEN NOT MATCHED THEN INSERT ("
                    + keyColumn
                    + ", next_id) VALUES (s.name, 2)",
                key));
    return SqlDialect.lastTaken(jdbc, table, keyColumn, key);
  }

  @Override
  public void raiseSequence(
      JdbcOperations jdbc, String table, String keyColumn, String key, long atLeast) {
    mergeCreatingRow(
        () ->
            jdbc.update(
                "MERGE INTO "
                    + table
                    + " t USING (VALUES (CAST(? AS VARCHAR(64)), CAST(? AS BIGINT))) s(name, floor)"
                    + " ON t."
                    + keyColumn
                    + " = s.name WHEN MATCHED THEN UPDATE SET next_id = GREATEST(t.next_id, s.floor)"
                    + " WHEN NOT MATCHED THEN INSERT ("
                    + keyColumn
                    + ", next_id) VALUES (s.name, s.floor)",
                key,
                atLeast));
  }

  /**
   * Runs a MERGE that inserts its row when missing. H2's MERGE is not atomic against a concurrent
   * one: when two find no row, the loser's insert fails with a unique violation, which H2 survives
   * (the transaction goes on); the row exists then, so the second attempt updates it.
   */
  private static void mergeCreatingRow(Runnable merge) {
    for (int attempt = 1; ; attempt++) {
      try {
        merge.run();
        return;
      } catch (DuplicateKeyException raced) {
        if (attempt == 3) {
          throw raced;
        }
      }
    }
  }

  @Override
  public String nowMillis() {
    // Not DATEDIFF from a zoned epoch: H2 counts that difference in the session's local time.
    return "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)";
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
            "SELECT "
                + column
                + " FROM FINAL TABLE ("
                + SqlDialect.advanceUpdate(table, column, next, assignments, condition)
                + ")",
            Long.class,
            args);
    return value.isEmpty() ? OptionalLong.empty() : OptionalLong.of(value.getFirst());
  }
}
