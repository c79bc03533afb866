package io.hotrank.console;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

/**
 * Reads the newest entries of {@code hr_audit} for the console's audit page. The audit module gains
 * a read API (with the signed-cursor admin endpoint) in parallel with the console; until the
 * console can use it, this one query, bound like every other, is the console's own.
 */
@Component
class AuditReader {

  /**
   * One entry as the page shows it.
   *
   * @param before the state before, as JSON text
   * @param after the state after, as JSON text
   */
  record Entry(
      long id,
      Instant at,
      String actor,
      String action,
      String target,
      @Nullable String reason,
      @Nullable String before,
      @Nullable String after) {}

  private static final String COLUMNS =
      "id, at, actor, action, target, reason, before_json, after_json";
  private static final RowMapper<Entry> ROW =
      (rs, n) ->
          new Entry(
              rs.getLong(1),
              Instant.ofEpochMilli(rs.getLong(2)),
              rs.getString(3),
              rs.getString(4),
              rs.getString(5),
              rs.getString(6),
              rs.getString(7),
              rs.getString(8));

  private final JdbcTemplate jdbc;

  AuditReader(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * The newest entries, at most {@code limit}: all of them, or one target's ({@code board:hot/42}),
   * or, with a trailing {@code *}, every target starting with the rest ({@code board:hot/*}).
   */
  List<Entry> newest(@Nullable String target, int limit) {
    if (target == null || target.isBlank()) {
      return jdbc.query(
          "SELECT " + COLUMNS + " FROM hr_audit ORDER BY id DESC LIMIT ?", ROW, limit);
    }
    String t = target.strip();
    if (t.endsWith("*")) {
      // '!' escapes LIKE's wildcards the same way on H2, MySQL and PostgreSQL.
      String prefix =
          t.substring(0, t.length() - 1).replace("!", "!!").replace("%", "!%").replace("_", "!_");
      return jdbc.query(
          "SELECT "
              + COLUMNS
              + " FROM hr_audit WHERE target LIKE ? ESCAPE '!' ORDER BY id DESC LIMIT ?",
          ROW,
          prefix + "%",
          limit);
    }
    return jdbc.query(
        "SELECT " + COLUMNS + " FROM hr_audit WHERE target = ? ORDER BY id DESC LIMIT ?",
        ROW,
        t,
        limit);
  }
}
