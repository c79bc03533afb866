package io.hotrank.ingest.fold;

import io.hotrank.core.score.InteractionType;
import io.hotrank.ingest.Engagement;
import io.hotrank.storage.SqlDialect;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The one owner of {@code hr_user_action}: one row per (biz, item, user, action). For like and
 * collect, a row while the user's action stands, which makes them idempotent per user, with what it
 * added to the trusted counter ({@code weight}, taken back by the undo). For view, comment, share
 * and dislike, how many interactions the user gave ({@code counted}, past the cap too: what
 * review's concentration reads; the trusted counter took the first {@code
 * hotrank.trust.max-per-actor} of them) and what they added to the trusted counter ({@code
 * weight}). The folder reads and writes it set-wise: one statement per chunk of (item, user) pairs,
 * not one per event. Every statement binds its parameters. Callers own the transactions.
 */
public class UserActionStore implements Engagement {

  /** One user's action on one item. */
  record Pair(long itemId, long userId) {}

  /**
   * A row's values: what it added to the trusted counter, in thousandths, and how many
   * interactions.
   */
  record Held(long weight, int counted) {}

  /**
   * A like or collect that stands, what it added to the trusted counter, and the time of the event
   * that set it (epoch milliseconds).
   */
  record Standing(String biz, long itemId, InteractionType counter, long weight, long atMillis) {}

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

  /** The rows of the pairs that have one. */
  Map<Pair, Held> read(String biz, String action, List<Pair> pairs) {
    Map<Pair, Held> found = new HashMap<>();
    if (lateral) {
      // PostgreSQL: the pairs as two arrays, each probed in the primary key (LATERAL forces the
      // probe: with a plain join and statistics from when the table was small, the planner
      // scanned every row of the biz once per pair, seconds per fold); one statement and one plan
      // for any number, where 500 OR-ed pairs took about 90 ms to plan and run.
      jdbc.query(
          "SELECT p.item_id, p.user_id, x.weight, x.counted FROM unnest(?::bigint[],"
              + " ?::bigint[]) AS p(item_id, user_id) CROSS JOIN LATERAL (SELECT a.weight,"
              + " a.counted FROM hr_user_action a WHERE a.biz = ? AND a.item_id = p.item_id AND"
              + " a.user_id = p.user_id AND a.action = ? LIMIT 1) x",
          rs -> {
            found.put(
                new Pair(rs.getLong(1), rs.getLong(2)), new Held(rs.getLong(3), rs.getInt(4)));
          },
          pairs.stream().map(Pair::itemId).toArray(Long[]::new),
          pairs.stream().map(Pair::userId).toArray(Long[]::new),
          biz,
          action);
      return found;
    }
    for (List<Pair> chunk : chunks(pairs)) {
      jdbc.query(
          "SELECT item_id, user_id, weight, counted FROM hr_user_action WHERE "
              + pairsWhere(chunk.size()),
          rs -> {
            found.put(
                new Pair(rs.getLong(1), rs.getLong(2)), new Held(rs.getLong(3), rs.getInt(4)));
          },
          pairArgs(biz, action, chunk));
    }
    return found;
  }

  /**
   * Records the action for each pair (none of which has it), created at {@code atMillis[i]}, with
   * {@code held[i]}.
   */
  void insert(String biz, String action, List<Pair> pairs, List<Long> atMillis, List<Held> held) {
    for (int from = 0; from < pairs.size(); from += CHUNK) {
      int to = Math.min(pairs.size(), from + CHUNK);
      StringBuilder sql =
          new StringBuilder(
              "INSERT INTO hr_user_action (biz, item_id, user_id, action, created_at, weight,"
                  + " counted) VALUES ");
      Object[] args = new Object[(to - from) * 7];
      int a = 0;
      for (int i = from; i < to; i++) {
        sql.append(i == from ? "(?, ?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?, ?)");
        args[a++] = biz;
        args[a++] = pairs.get(i).itemId();
        args[a++] = pairs.get(i).userId();
        args[a++] = action;
        args[a++] = atMillis.get(i);
        args[a++] = held.get(i).weight();
        args[a++] = held.get(i).counted();
      }
      jdbc.update(sql.toString(), args);
    }
  }

  /**
   * Replaces the values of existing rows, one JDBC batch: a view's count that grew, or a like set
   * again within one fold (unliked and liked), whose time moves to the new like's ({@code atMillis}
   * null: the row keeps its time).
   */
  void update(
      String biz, String action, List<Pair> pairs, List<Held> held, List<@Nullable Long> atMillis) {
    List<Object[]> rows = new ArrayList<>(pairs.size());
    for (int i = 0; i < pairs.size(); i++) {
      rows.add(
          new Object[] {
            held.get(i).weight(),
            held.get(i).counted(),
            atMillis.get(i),
            biz,
            pairs.get(i).itemId(),
            pairs.get(i).userId(),
            action
          });
    }
    jdbc.batchUpdate(
        "UPDATE hr_user_action SET weight = ?, counted = ?, created_at = COALESCE(?, created_at)"
            + " WHERE biz = ? AND item_id = ? AND user_id = ? AND action = ?",
        rows);
  }

  /** Removes the action of each pair (undos are few: the OR-ed form serves every engine). */
  void delete(String biz, String action, List<Pair> pairs) {
    for (List<Pair> chunk : chunks(pairs)) {
      jdbc.update(
          "DELETE FROM hr_user_action WHERE " + pairsWhere(chunk.size()),
          pairArgs(biz, action, chunk));
    }
  }

  /**
   * The user's likes and collects that stand and still add to the trusted counters (weight above
   * 0), by the index on {@code user_id}.
   */
  List<Standing> standingOf(long userId) {
    return jdbc.query(
        "SELECT biz, item_id, action, weight, created_at FROM hr_user_action WHERE user_id = ?"
            + " AND action IN (?, ?) AND weight > ? ORDER BY biz, item_id, action",
        (rs, n) ->
            new Standing(
                rs.getString(1),
                rs.getLong(2),
                InteractionType.fromWireName(rs.getString(3)).orElseThrow(),
                rs.getLong(4),
                rs.getLong(5)),
        userId,
        InteractionType.LIKE.wireName(),
        InteractionType.COLLECT.wireName(),
        0);
  }

  /** Sets the weight of the user's likes and collects to 0: taken back by a flag. */
  void clearWeights(long userId) {
    jdbc.update(
        "UPDATE hr_user_action SET weight = ? WHERE user_id = ? AND action IN (?, ?) AND weight > ?",
        0,
        userId,
        InteractionType.LIKE.wireName(),
        InteractionType.COLLECT.wireName(),
        0);
  }

  /** Whether the user's action is recorded. */
  boolean exists(String biz, long itemId, long userId, String action) {
    return !read(biz, action, List.of(new Pair(itemId, userId))).isEmpty();
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

  /** Items per query of {@link #byActor}. */
  private static final int ITEMS_PER_QUERY = 500;

  @Override
  public Map<Long, Given> byActor(String biz, java.util.Collection<Long> itemIds, int top) {
    record Counted(int actors, List<ActorCount> mostActive) {}

    Map<Long, Counted> found = new HashMap<>();
    List<Long> ids = itemIds.stream().distinct().toList();
    for (int from = 0; from < ids.size(); from += ITEMS_PER_QUERY) {
      List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + ITEMS_PER_QUERY));
      List<Object> args = new ArrayList<>(chunk.size() + 2);
      args.add(biz);
      args.addAll(chunk);
      args.add(top);
      // Window functions (H2 2, MariaDB 10.2, PostgreSQL): the count and the ranks per item are
      // computed where the rows are, and only the most active of each item travel.
      jdbc.query(
          "SELECT item_id, user_id, n, actors FROM (SELECT item_id, user_id, n, ROW_NUMBER()"
              + " OVER (PARTITION BY item_id ORDER BY n DESC, user_id) AS rn, COUNT(*) OVER"
              + " (PARTITION BY item_id) AS actors FROM (SELECT item_id, user_id, SUM(counted) AS"
              + " n FROM hr_user_action WHERE biz = ? AND item_id IN ("
              + SqlDialect.placeholders(chunk.size())
              + ") GROUP BY item_id, user_id) g) r WHERE rn <= ? ORDER BY item_id, rn",
          rs -> {
            int actors = rs.getInt(4);
            found
                .computeIfAbsent(rs.getLong(1), k -> new Counted(actors, new ArrayList<>()))
                .mostActive()
                .add(new ActorCount(rs.getLong(2), rs.getLong(3)));
          },
          args.toArray());
    }
    Map<Long, Given> given = HashMap.newHashMap(found.size());
    found.forEach((id, c) -> given.put(id, new Given(c.actors(), List.copyOf(c.mostActive()))));
    return given;
  }
}
