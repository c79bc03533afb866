package io.hotrank.item;

import io.hotrank.core.score.Interactions;
import io.hotrank.storage.SqlDialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * SQL for the item tables ({@code hr_item}, {@code hr_item_counter}, {@code hr_id_sequence}). Every
 * statement binds its parameters; instants are stored as epoch milliseconds. Callers own the
 * transactions.
 */
@Repository
public class ItemStore {

  private static final String COUNTER_COLUMNS =
      "c.like_cnt, c.view_cnt, c.comment_cnt, c.share_cnt, c.collect_cnt, c.dislike_cnt";

  private final JdbcTemplate jdbc;
  private final SqlDialect dialect;

  ItemStore(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
  }

  /**
   * Inserts an item with zero counters.
   *
   * @throws ItemExistsException if the biz and id are taken, by a live or a deleted item
   */
  void insert(
      String biz,
      long id,
      long authorId,
      String title,
      List<String> tags,
      Instant createdAt,
      Instant now) {
    try {
      jdbc.update(
          "INSERT INTO hr_item (biz, id, author_id, title, tags, created_at, updated_at, deleted)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          biz,
          id,
          authorId,
          title,
          String.join(",", tags),
          createdAt.toEpochMilli(),
          now.toEpochMilli(),
          false);
    } catch (DuplicateKeyException e) {
      throw new ItemExistsException(biz, id);
    }
    jdbc.update(
        "INSERT INTO hr_item_counter (biz, item_id, created_at, deleted, updated_at)"
            + " VALUES (?, ?, ?, ?, ?)",
        biz,
        id,
        createdAt.toEpochMilli(),
        false,
        now.toEpochMilli());
  }

  /** The live item, with its counters. */
  Optional<Item> find(String biz, long id) {
    List<Item> found =
        jdbc.query(
            "SELECT i.biz, i.id, i.author_id, i.title, i.tags, i.created_at, i.updated_at, "
                + COUNTER_COLUMNS
                + " FROM hr_item i JOIN hr_item_counter c ON c.biz = i.biz AND c.item_id = i.id"
                + " WHERE i.biz = ? AND i.id = ? AND i.deleted = ?",
            ItemStore::item,
            biz,
            id,
            false);
    return found.stream().findFirst();
  }

  /** Updates the descriptive fields of a live item; createdAt never changes. */
  boolean update(String biz, long id, long authorId, String title, List<String> tags, Instant now) {
    return jdbc.update(
            "UPDATE hr_item SET author_id = ?, title = ?, tags = ?, updated_at = ?"
                + " WHERE biz = ? AND id = ? AND deleted = ?",
            authorId,
            title,
            String.join(",", tags),
            now.toEpochMilli(),
            biz,
            id,
            false)
        == 1;
  }

  /**
   * Marks a live item deleted, in both tables (the ranking scan reads the counter table's copy of
   * the flag). Returns false if there was no live item. Must run inside a transaction.
   */
  boolean markDeleted(String biz, long id, Instant now) {
    if (jdbc.update(
            "UPDATE hr_item SET deleted = ?, updated_at = ? WHERE biz = ? AND id = ? AND deleted ="
                + " ?",
            true,
            now.toEpochMilli(),
            biz,
            id,
            false)
        == 0) {
      return false;
    }
    jdbc.update(
        "UPDATE hr_item_counter SET deleted = ?, updated_at = ? WHERE biz = ? AND item_id = ?",
        true,
        now.toEpochMilli(),
        biz,
        id);
    return true;
  }

  /** Whether any item, live or deleted, has this biz and id. */
  boolean existsIncludingDeleted(String biz, long id) {
    Integer n =
        jdbc.queryForObject(
            "SELECT COUNT(*) FROM hr_item WHERE biz = ? AND id = ?", Integer.class, biz, id);
    return n != null && n > 0;
  }

  /**
   * Takes the next generated id of a biz. Must run in its own short transaction: the sequence row
   * stays locked until it commits.
   */
  long nextId(String biz) {
    return dialect.takeNextInSequence(jdbc, "hr_id_sequence", biz);
  }

  /** Keeps generated ids of a biz above an id a client chose. In the insert's transaction. */
  void reserveId(String biz, long id) {
    dialect.raiseSequence(jdbc, "hr_id_sequence", biz, id + 1);
  }

  /**
   * Locks the counter rows of the given live items of one biz, in id order (a fixed order keeps
   * concurrent batches from deadlocking), and returns their current values. Items that do not exist
   * or are deleted are absent from the result. Must run inside a transaction.
   */
  public Map<Long, Interactions> lockCounters(String biz, Collection<Long> ids) {
    Long[] sorted = ids.stream().distinct().sorted().toArray(Long[]::new);
    Object[] args = new Object[sorted.length + 2];
    args[0] = biz;
    System.arraycopy(sorted, 0, args, 1, sorted.length);
    args[args.length - 1] = false;
    Map<Long, Interactions> counters = new HashMap<>();
    jdbc.query(
        "SELECT c.item_id, "
            + COUNTER_COLUMNS
            + " FROM hr_item_counter c WHERE c.biz = ?"
            + " AND c.item_id IN ("
            + String.join(", ", Collections.nCopies(sorted.length, "?"))
            + ") AND c.deleted = ? ORDER BY c.item_id FOR UPDATE",
        rs -> {
          counters.put(rs.getLong(1), interactions(rs, 2));
        },
        args);
    return counters;
  }

  /** Writes absolute counter values: one UPDATE per item, sent as one JDBC batch. */
  public void writeCounters(String biz, Map<Long, Interactions> counters, Instant now) {
    List<Object[]> rows =
        counters.entrySet().stream()
            .map(
                e -> {
                  Interactions c = e.getValue();
                  return new Object[] {
                    c.like(),
                    c.view(),
                    c.comment(),
                    c.share(),
                    c.collect(),
                    c.dislike(),
                    now.toEpochMilli(),
                    biz,
                    e.getKey()
                  };
                })
            .toList();
    jdbc.batchUpdate(
        "UPDATE hr_item_counter SET like_cnt = ?, view_cnt = ?, comment_cnt = ?, share_cnt = ?,"
            + " collect_cnt = ?, dislike_cnt = ?, updated_at = ? WHERE biz = ? AND item_id = ?",
        rows);
  }

  private static Item item(ResultSet rs, int row) throws SQLException {
    String tags = rs.getString("tags");
    return new Item(
        rs.getString("biz"),
        rs.getLong("id"),
        rs.getLong("author_id"),
        rs.getString("title"),
        tags.isEmpty() ? List.of() : List.of(tags.split(",")),
        Instant.ofEpochMilli(rs.getLong("created_at")),
        Instant.ofEpochMilli(rs.getLong("updated_at")),
        Item.Counts.of(interactions(rs, 8)));
  }

  /** Reads the six counter columns starting at {@code first}, in COUNTER_COLUMNS order. */
  public static Interactions interactions(ResultSet rs, int first) throws SQLException {
    return new Interactions(
        rs.getLong(first),
        rs.getLong(first + 1),
        rs.getLong(first + 2),
        rs.getLong(first + 3),
        rs.getLong(first + 4),
        rs.getLong(first + 5));
  }
}
