package io.hotrank.ingest;

import java.util.ArrayList;
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
class UserActionStore {

  /** Pairs per statement: keeps statements and their plans small on every engine. */
  static final int CHUNK = 500;

  /** One user's action on one item. */
  record Pair(long itemId, long userId) {}

  private final JdbcTemplate jdbc;

  UserActionStore(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** Which of the pairs have the action recorded. */
  Set<Pair> existing(String biz, String action, List<Pair> pairs) {
    Set<Pair> found = new HashSet<>();
    for (List<Pair> chunk : chunks(pairs)) {
      jdbc.query(
          "SELECT item_id, user_id FROM hr_user_action WHERE biz = ? AND action = ? AND ("
              + pairCondition(chunk.size())
              + ")",
          rs -> {
            found.add(new Pair(rs.getLong(1), rs.getLong(2)));
          },
          args(biz, action, chunk));
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

  /** Removes the action of each pair. */
  void delete(String biz, String action, List<Pair> pairs) {
    for (List<Pair> chunk : chunks(pairs)) {
      jdbc.update(
          "DELETE FROM hr_user_action WHERE biz = ? AND action = ? AND ("
              + pairCondition(chunk.size())
              + ")",
          args(biz, action, chunk));
    }
  }

  /** Whether the user's action is recorded. */
  boolean exists(String biz, long itemId, long userId, String action) {
    return !existing(biz, action, List.of(new Pair(itemId, userId))).isEmpty();
  }

  /**
   * {@code (item_id = ? AND user_id = ?) OR ...}: every engine turns it into ranges of the primary
   * key (a row-value {@code IN} is not range-optimized by every MariaDB version).
   */
  private static String pairCondition(int n) {
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sql.append(i == 0 ? "" : " OR ").append("(item_id = ? AND user_id = ?)");
    }
    return sql.toString();
  }

  private static Object[] args(String biz, String action, List<Pair> pairs) {
    Object[] args = new Object[2 + 2 * pairs.size()];
    args[0] = biz;
    args[1] = action;
    for (int i = 0; i < pairs.size(); i++) {
      args[2 + 2 * i] = pairs.get(i).itemId();
      args[3 + 2 * i] = pairs.get(i).userId();
    }
    return args;
  }

  private static List<List<Pair>> chunks(List<Pair> pairs) {
    List<List<Pair>> chunks = new ArrayList<>();
    for (int from = 0; from < pairs.size(); from += CHUNK) {
      chunks.add(pairs.subList(from, Math.min(pairs.size(), from + CHUNK)));
    }
    return chunks;
  }
}
