package io.hotrank.audit;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

/**
 * The read and prune side of {@code hr_audit} (the writes are {@link AuditLog}'s). Pages walk the
 * identity downwards, which the {@code (target, id)} index serves for one target and the primary
 * key for all; a prefix filter is a {@code LIKE 'prefix%'} on the same index. Thread-safe.
 */
@Component
class AuditStore {

  /** {@code LIKE}'s escape character: not a backslash, which MySQL's literals treat apart. */
  private static final char ESCAPE = '!';

  private static final RowMapper<AuditEntry> ENTRY =
      (rs, n) ->
          new AuditEntry(
              rs.getLong("id"),
              Instant.ofEpochMilli(rs.getLong("at")),
              rs.getString("actor"),
              rs.getString("action"),
              rs.getString("target"),
              rs.getString("reason"),
              rs.getString("before_json"),
              rs.getString("after_json"));

  private final JdbcTemplate jdbc;

  AuditStore(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * Up to {@code limit} entries with an id below {@code beforeId}, newest first.
   *
   * @param target null for all, else an exact target, or a prefix when {@code prefix}
   */
  List<AuditEntry> page(long beforeId, @Nullable String target, boolean prefix, int limit) {
    String columns = "id, at, actor, action, target, reason, before_json, after_json";
    if (target == null) {
      return jdbc.query(
          "SELECT " + columns + " FROM hr_audit WHERE id < ? ORDER BY id DESC LIMIT ?",
          ENTRY,
          beforeId,
          limit);
    }
    if (prefix) {
      return jdbc.query(
          "SELECT "
              + columns
              + " FROM hr_audit WHERE target LIKE ? ESCAPE '"
              + ESCAPE
              + "' AND id < ? ORDER BY id DESC LIMIT ?",
          ENTRY,
          escaped(target) + "%",
          beforeId,
          limit);
    }
    return jdbc.query(
        "SELECT " + columns + " FROM hr_audit WHERE target = ? AND id < ? ORDER BY id DESC LIMIT ?",
        ENTRY,
        target,
        beforeId,
        limit);
  }

  private static String escaped(String literal) {
    StringBuilder out = new StringBuilder(literal.length() + 4);
    for (char c : literal.toCharArray()) {
      if (c == ESCAPE || c == '%' || c == '_') {
        out.append(ESCAPE);
      }
      out.append(c);
    }
    return out.toString();
  }

  /**
   * Deletes up to {@code batch} of the oldest entries written before {@code cutoffMillis}: the
   * batch's ids are read first (MySQL takes no {@code LIMIT} in a {@code DELETE ... IN} subquery),
   * then the rows at or below the highest of them that are still older than the cutoff, which are
   * exactly those ids.
   *
   * @return how many were deleted; fewer than {@code batch} means none is left
   */
  int deleteOlderThan(long cutoffMillis, int batch) {
    List<Long> ids =
        jdbc.queryForList(
            "SELECT id FROM hr_audit WHERE at < ? ORDER BY id LIMIT ?",
            Long.class,
            cutoffMillis,
            batch);
    if (ids.isEmpty()) {
      return 0;
    }
    return jdbc.update(
        "DELETE FROM hr_audit WHERE id <= ? AND at < ?", ids.getLast(), cutoffMillis);
  }
}
