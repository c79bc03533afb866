package io.hotrank.ingest.fold;

import io.hotrank.storage.SqlDialect;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The one owner of {@code hr_user_action}: one row per (biz, item, user, action) that a user has
 * done and not undone, which makes like and collect idempotent per user. The folder reads and
 * writes it set-wise: one statement per chunk of (item, user) pairs, not one per event. Every
 * statement binds its parameters. Callers own the transactions.
 */
public class UserActionStore {

  /** One user's action on one item. */
  record Pair(long itemId, long userId) {}

  /** Pairs per statement: keeps statements and their plans small on every engine. */
  static final int CHUNK = 500;

  private final JdbcTemplate jdbc;
  private final boolean lateral;
  private final boolean rowValues;

  public UserActionStore(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.lateral = dialect.supportsUnnest();
    this.rowValues = dialect.indexesRowValueIn();
  }

  /** Which of the pairs have the action recorded. */
  Set<Pair> existing(String biz, String action, List<Pair> pairs) {
    Set<Pair> found = new HashSet<>();
    if (lateral) {
      // PostgreSQL: the pairs as two arrays, each probed in the primary key (LATERAL forces the
      // probe: with a plain join and statistics from when the table was small, the planner
      // scanned every row of the biz once per pair, seconds per fold); one statement and one plan
      // for any number, where 500 OR-ed pairs took about 90 ms to plan and run.
      jdbc.query(
          "SELECT p.item_id, p.user_id FROM unnest(?::bigint[], ?::bigint[]) AS p(item_id,"
              + " user_id) CROSS JOIN LATERAL (SELECT 1 FROM hr_user_action a WHERE a.biz = ?"
              + " AND a.item_id = p.item_id AND a.user_id = p.user_id AND a.action = ? LIMIT 1) x",
          rs -> {
            found.add(new Pair(rs.getLong(1), rs.getLong(2)));
          },
          pairs.stream().map(Pair::itemId).toArray(Long[]::new),
          pairs.stream().map(Pair::userId).toArray(Long[]::new),
          biz,
          action);
      return found;
    }
    for (List<Pair> chunk : chunks(pairs)) {
      jdbc.query(
          "SELECT item_id, user_id FROM hr_user_action WHERE " + pairsWhere(chunk.size()),
          rs -> {
            found.add(new Pair(rs.getLong(1), rs.getLong(2)));
          },
          pairArgs(biz, action, chunk));
    }
    return found;
  }

  /** Records the action for each pair (none of which has it), created at {@code atMillis[i]}. */
  void insert(String biz, String action, List<Pair> pairs, List<Long> atMillis) {
    for (int from = 0; from < pairs.size(); from += CHUNK) {
      int to = Math.min(pairs.size(), from + CHUNK);
      StringBuilder sql =
          new StringBuilder(
              "INSERT INTO hr_user_action (biz, item_id, user_id, action, created_at) VALUES ");
      Object[] args = new Object[(to - from) * 5];
      int a = 0;
      for (int i = from; i < to; i++) {
        sql.append(i == from ? "(?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?)");
        args[a++] = biz;
        args[a++] = pairs.get(i).itemId();
        args[a++] = pairs.get(i).userId();
        args[a++] = action;
        args[a++] = atMillis.get(i);
      }
      jdbc.update(sql.toString(), args);
    }
  }

  /** Removes the action of each pair (undos are few: the OR-ed form serves every engine). */
  void delete(String biz, String action, List<Pair> pairs) {
    for (List<Pair> chunk : chunks(pairs)) {
      jdbc.update(
          "DELETE FROM hr_user_action WHERE " + pairsWhere(chunk.size()),
          pairArgs(biz, action, chunk));
    }
  }

  /** Whether the user's action is recorded. */
  boolean exists(String biz, long itemId, long userId, String action) {
    return !existing(biz, action, List.of(new Pair(itemId, userId))).isEmpty();
  }

  /**
   * The condition on {@code n} pairs: on H2 primary-key row values, {@code (biz, item_id, user_id,
   * action) IN ((?, ?, ?, ?), ...)}, each an index lookup; elsewhere {@code biz = ? AND action = ?
   * AND ((item_id = ? AND user_id = ?) OR ...)}, which the engines turn into ranges of the primary
   * key (a row-value {@code IN} is not range-optimized by every MariaDB version).
   */
  private String pairsWhere(int n) {
    if (rowValues) {
      return "(biz, item_id, user_id, action) IN ("
          + String.join(", ", Collections.nCopies(n, "(?, ?, ?, ?)"))
          + ")";
    }
    StringBuilder sql = new StringBuilder("biz = ? AND action = ? AND (");
    for (int i = 0; i < n; i++) {
      sql.append(i == 0 ? "" : " OR ").append("(item_id = ? AND user_id = ?)");
    }
    return sql.append(")").toString();
  }

  private Object[] pairArgs(String biz, String action, List<Pair> pairs) {
    List<Object> args = new ArrayList<>(4 * pairs.size());
    if (!rowValues) {
      args.add(biz);
      args.add(action);
    }
    for (Pair p : pairs) {
      if (rowValues) {
        args.add(biz);
      }
      args.add(p.itemId());
      args.add(p.userId());
      if (rowValues) {
        args.add(action);
      }
    }
    return args.toArray();
  }

  private static List<List<Pair>> chunks(List<Pair> pairs) {
    List<List<Pair>> chunks = new ArrayList<>();
    for (int from = 0; from < pairs.size(); from += CHUNK) {
      chunks.add(pairs.subList(from, Math.min(pairs.size(), from + CHUNK)));
    }
    return chunks;
  }
}
