package io.hotrank.ingest.fold;

import io.hotrank.storage.SqlDialect;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The one owner of {@code hr_event_id}: the (biz, id) of every event accepted with an id within the
 * dedup window, written in the transaction that appends the event (the event log) or folds it
 * (Kafka), so that an event is a duplicate exactly when an earlier one with its (biz, id)
 * committed. Every statement binds its parameters; callers own the transactions.
 */
public final class EventIds {

  /** Ids per statement. */
  static final int CHUNK = 500;

  private final JdbcTemplate jdbc;
  private final boolean unnest;

  public EventIds(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.unnest = dialect.supportsUnnest();
  }

  /**
   * Tells the duplicates among the events and records the ids of the others; inside the caller's
   * transaction. An event is a duplicate when an event before it in the list, or one committed
   * earlier, has its biz and id; events without an id never are.
   *
   * @return for each event, whether it is a duplicate
   * @throws org.springframework.dao.DuplicateKeyException when a concurrent transaction recorded
   *     one of the ids first (MariaDB, H2; PostgreSQL waits for it instead): roll back and run
   *     again, and the id is a duplicate then
   */
  public <E> boolean[] record(
      List<E> events, Function<E, String> bizOf, Function<E, @Nullable String> idOf, long now) {
    boolean[] duplicate = new boolean[events.size()];
    // Sorted, so that transactions recording overlapping ids lock them in one order.
    Map<String, Map<String, Integer>> firstByBiz = new TreeMap<>();
    for (int i = 0; i < events.size(); i++) {
      E e = events.get(i);
      String id = idOf.apply(e);
      if (id != null
          && firstByBiz.computeIfAbsent(bizOf.apply(e), b -> new TreeMap<>()).putIfAbsent(id, i)
              != null) {
        duplicate[i] = true;
      }
    }
    if (unnest) {
      // PostgreSQL: one statement per biz inserts the ids that are new and says which they were;
      // one a concurrent transaction is inserting waits for it, and is a duplicate if it commits.
      firstByBiz.forEach(
          (biz, first) -> {
            Set<String> inserted =
                new HashSet<>(
                    jdbc.queryForList(
                        "INSERT INTO hr_event_id (biz, event_id, seen_at) SELECT ?, u, ? FROM"
                            + " unnest(?::text[]) AS u ON CONFLICT DO NOTHING RETURNING event_id",
                        String.class,
                        biz,
                        now,
                        first.keySet().toArray(String[]::new)));
            first.forEach(
                (id, i) -> {
                  if (!inserted.contains(id)) {
                    duplicate[i] = true;
                  }
                });
          });
      return duplicate;
    }
    firstByBiz.forEach(
        (biz, first) -> {
          List<String> ids = new ArrayList<>(first.keySet());
          for (int from = 0; from < ids.size(); from += CHUNK) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            Object[] args = new Object[chunk.size() + 1];
            args[0] = biz;
            for (int i = 0; i < chunk.size(); i++) {
              args[i + 1] = chunk.get(i);
            }
            jdbc.query(
                "SELECT event_id FROM hr_event_id WHERE biz = ? AND event_id IN ("
                    + String.join(", ", Collections.nCopies(chunk.size(), "?"))
                    + ")",
                rs -> {
                  duplicate[first.remove(rs.getString(1))] = true;
                },
                args);
          }
          insert(biz, new ArrayList<>(first.keySet()), now);
        });
    return duplicate;
  }

  private void insert(String biz, List<String> ids, long now) {
    for (int from = 0; from < ids.size(); from += CHUNK) {
      int to = Math.min(ids.size(), from + CHUNK);
      StringBuilder sql =
          new StringBuilder("INSERT INTO hr_event_id (biz, event_id, seen_at) VALUES ");
      Object[] args = new Object[(to - from) * 3];
      int a = 0;
      for (int i = from; i < to; i++) {
        sql.append(i == from ? "(?, ?, ?)" : ", (?, ?, ?)");
        args[a++] = biz;
        args[a++] = ids.get(i);
        args[a++] = now;
      }
      jdbc.update(sql.toString(), args);
    }
  }

  /**
   * Forgets the ids of events that were recorded at {@code seenAt} but never counted (a Kafka
   * record sent to the dead letters for want of its item), so that the same event replayed once its
   * cause is fixed counts; inside the caller's transaction. Only the rows recorded at {@code
   * seenAt} go: an id pruned meanwhile and recorded again by an event that counted stays.
   */
  public void forget(String biz, List<String> ids, long seenAt) {
    List<String> sorted = ids.stream().sorted().toList(); // locked in the order record takes
    for (int from = 0; from < sorted.size(); from += CHUNK) {
      List<String> chunk = sorted.subList(from, Math.min(sorted.size(), from + CHUNK));
      List<Object> args = new ArrayList<>(chunk.size() + 2);
      args.add(biz);
      args.add(seenAt);
      args.addAll(chunk);
      jdbc.update(
          "DELETE FROM hr_event_id WHERE biz = ? AND seen_at = ? AND event_id IN ("
              + String.join(", ", Collections.nCopies(chunk.size(), "?"))
              + ")",
          args.toArray());
    }
  }

  /**
   * Deletes up to {@code batch} ids recorded before {@code cutoff}; autocommitted.
   *
   * @return how many
   */
  public int prune(long cutoff, int batch) {
    Map<String, List<String>> byBiz = new LinkedHashMap<>();
    jdbc.query(
        "SELECT biz, event_id FROM hr_event_id WHERE seen_at < ? ORDER BY seen_at LIMIT ?",
        rs -> {
          byBiz.computeIfAbsent(rs.getString(1), b -> new ArrayList<>()).add(rs.getString(2));
        },
        cutoff,
        batch);
    int deleted = 0;
    for (Map.Entry<String, List<String>> entry : byBiz.entrySet()) {
      List<String> ids = entry.getValue();
      for (int from = 0; from < ids.size(); from += CHUNK) {
        List<String> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
        List<Object> args = new ArrayList<>(chunk.size() + 2);
        args.add(entry.getKey());
        args.addAll(chunk);
        args.add(cutoff);
        deleted +=
            jdbc.update(
                "DELETE FROM hr_event_id WHERE biz = ? AND event_id IN ("
                    + String.join(", ", Collections.nCopies(chunk.size(), "?"))
                    + ") AND seen_at < ?",
                args.toArray());
      }
    }
    return deleted;
  }
}
