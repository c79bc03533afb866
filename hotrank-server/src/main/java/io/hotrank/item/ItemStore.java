package io.hotrank.item;

import io.hotrank.storage.SqlDialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The one owner of {@code hr_item} (the descriptive fields of items) and {@code hr_id_sequence}
 * (the next generated id of each biz). Columns are mapped by name; every statement binds its
 * parameters; instants are stored as epoch milliseconds. Callers own the transactions.
 */
@Component
public class ItemStore {

  /** Items per headings statement: 2 parameters each, far below every engine's limit. */
  private static final int HEADINGS_PER_STATEMENT = 1000;

  private static final String SEQUENCE = "hr_id_sequence";
  private static final String COLUMNS =
      "biz, id, author_id, title, tags, attributes, created_at, updated_at, version, deleted";
  private static final String QUALIFIED_COLUMNS =
      Arrays.stream(COLUMNS.split(", "))
          .map(column -> "i." + column)
          .collect(Collectors.joining(", "));
  private static final String SEQUENCE_KEY = "biz";

  private final JdbcTemplate jdbc;
  private final SqlDialect dialect;

  public ItemStore(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
  }

  /**
   * The descriptive fields of an item, without its counters.
   *
   * @param attributes sorted by key, empty when the item has none
   * @param version raised by every edit and by the deletion: what caches compare
   * @param deleted whether the item was deleted (only {@link #findAll} returns deleted items)
   */
  public record Stored(
      String biz,
      long id,
      long authorId,
      String title,
      List<String> tags,
      Map<String, String> attributes,
      Instant createdAt,
      Instant updatedAt,
      long version,
      boolean deleted) {

    /** Keeps the attributes in their canonical order, whoever built the item. */
    public Stored {
      attributes = ItemAttributes.canonical(attributes);
    }
  }

  /**
   * Inserts a live item.
   *
   * @throws ItemExistsException if the biz and id are taken, by a live or a deleted item
   */
  public void insert(
      String biz,
      long id,
      long authorId,
      String title,
      List<String> tags,
      SortedMap<String, String> attributes,
      Instant createdAt,
      Instant now) {
    try {
      jdbc.update(
          "INSERT INTO hr_item"
              + " (biz, id, author_id, title, tags, attributes, created_at, updated_at, deleted)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          biz,
          id,
          authorId,
          title,
          String.join(",", tags),
          ItemAttributes.encode(attributes),
          createdAt.toEpochMilli(),
          now.toEpochMilli(),
          false);
    } catch (DuplicateKeyException e) {
      throw new ItemExistsException(biz, id);
    }
    indexTags(biz, id, tags, createdAt.toEpochMilli());
  }

  /**
   * Makes what this instance committed survive a crash of the process (an embedded H2 file keeps
   * recent commits in memory for a moment; the other engines already have): called after each write
   * a client is answered for, as the event log does after each append.
   */
  public void makeCommitsDurable() {
    dialect.makeCommitsDurable(jdbc);
  }

  /** One row per distinct tag in {@code hr_item_tag}, for the tag feeds. */
  private void indexTags(String biz, long id, List<String> tags, long createdAt) {
    List<Object[]> rows = new ArrayList<>();
    for (String tag : new java.util.LinkedHashSet<>(tags)) {
      rows.add(new Object[] {biz, tag, createdAt, id});
    }
    if (!rows.isEmpty()) {
      jdbc.batchUpdate(
          "INSERT INTO hr_item_tag (biz, tag, created_at, item_id) VALUES (?, ?, ?, ?)", rows);
    }
  }

  private void dropTags(String biz, long id) {
    jdbc.update("DELETE FROM hr_item_tag WHERE biz = ? AND item_id = ?", biz, id);
  }

  /**
   * The newest live items of one biz, or of one tag of it, strictly after {@code (createdAt, id)}
   * in the order newest first, ties by id highest first: the keyset the time-ordered feeds page
   * with. Deleted items are skipped here, so a page is full while items remain.
   *
   * @param tag null for every item of the biz
   * @param afterCreatedAt with {@code afterId}, where the previous page ended; null for the first
   */
  public List<Keyed> newest(
      String biz, @Nullable String tag, @Nullable Long afterCreatedAt, long afterId, int limit) {
    List<Object> args = new ArrayList<>();
    StringBuilder sql = new StringBuilder();
    if (tag == null) {
      sql.append("SELECT id, created_at FROM hr_item WHERE biz = ? AND deleted = ?");
      args.add(biz);
      args.add(false);
    } else {
      // Tag rows of deleted items are removed with the deletion.
      sql.append("SELECT item_id AS id, created_at FROM hr_item_tag WHERE biz = ? AND tag = ?");
      args.add(biz);
      args.add(tag);
    }
    String idColumn = tag == null ? "id" : "item_id";
    if (afterCreatedAt != null) {
      // The first bound repeats the second's for the planners that bound an index range only
      // with a plain comparison (PostgreSQL, H2).
      sql.append(" AND created_at <= ? AND (created_at < ? OR (created_at = ? AND ")
          .append(idColumn)
          .append(" < ?))");
      args.add(afterCreatedAt);
      args.add(afterCreatedAt);
      args.add(afterCreatedAt);
      args.add(afterId);
    }
    sql.append(" ORDER BY created_at DESC, ").append(idColumn).append(" DESC LIMIT ?");
    args.add(limit);
    return jdbc.query(
        sql.toString(),
        (rs, i) -> new Keyed(rs.getLong("id"), rs.getLong("created_at")),
        args.toArray());
  }

  /** An item's id and creation time (epoch ms): a position in a time-ordered feed. */
  public record Keyed(long id, long createdAt) {}

  /** The live item of this biz and id. */
  public Optional<Stored> find(String biz, long id) {
    return jdbc
        .query(
            "SELECT " + COLUMNS + " FROM hr_item WHERE biz = ? AND id = ? AND deleted = ?",
            ItemStore::stored,
            biz,
            id,
            false)
        .stream()
        .findFirst();
  }

  /**
   * The given items of one biz, live and deleted, by id, in one query; ids no item ever had are
   * absent from the result.
   */
  public Map<Long, Stored> findAll(String biz, Collection<Long> ids) {
    Map<Long, Stored> found = new HashMap<>();
    if (ids.isEmpty()) {
      return found;
    }
    List<Object> args = new ArrayList<>();
    String keys = dialect.bizIdsIn("biz", "id", biz, ids, args);
    jdbc.query(
        "SELECT " + COLUMNS + " FROM hr_item WHERE " + keys,
        rs -> {
          Stored item = stored(rs, 0);
          found.put(item.id(), item);
        },
        args.toArray());
    return found;
  }

  /**
   * An item, live or deleted, with the counters its fold keeps.
   *
   * @param counted null if the item has no live counter row (deleted)
   */
  public record WithCounts(Stored item, CounterStore.@Nullable Counted counted) {}

  /**
   * The given items of one biz with their counters, in one query (a join of {@code hr_item} and
   * {@code hr_item_counter}, both by their primary keys); ids no item ever had are absent.
   */
  public Map<Long, WithCounts> findWithCounts(String biz, Collection<Long> ids) {
    Map<Long, WithCounts> found = new HashMap<>();
    if (ids.isEmpty()) {
      return found;
    }
    List<Object> args = new ArrayList<>();
    args.add(false);
    String keys = dialect.bizIdsIn("i.biz", "i.id", biz, ids, args);
    jdbc.query(
        "SELECT "
            + QUALIFIED_COLUMNS
            + ", c.fold_no, "
            + CounterStore.counterColumns("c")
            + " FROM hr_item i LEFT JOIN hr_item_counter c"
            + " ON c.biz = i.biz AND c.item_id = i.id AND c.deleted = ?"
            + " WHERE "
            + keys,
        rs -> {
          Stored item = stored(rs, 0);
          rs.getLong("fold_no");
          CounterPages.Counted counted =
              rs.wasNull() ? null : CounterStore.counted(rs, rs.getLong("fold_no"));
          found.put(item.id(), new WithCounts(item, counted));
        },
        args.toArray());
    return found;
  }

  /**
   * Titles and authors of the given live items of one biz, by id; deleted ones are absent. Any
   * number of ids: a segmented board's winners may be most of its window, so they are read {@value
   * #HEADINGS_PER_STATEMENT} a statement (bound parameters are limited per statement).
   */
  public Map<Long, ItemCards.Heading> headings(String biz, Collection<Long> ids) {
    Map<Long, ItemCards.Heading> found = new HashMap<>();
    List<Long> all = List.copyOf(ids);
    for (int from = 0; from < all.size(); from += HEADINGS_PER_STATEMENT) {
      headings(biz, all.subList(from, Math.min(all.size(), from + HEADINGS_PER_STATEMENT)), found);
    }
    return found;
  }

  private void headings(String biz, List<Long> ids, Map<Long, ItemCards.Heading> found) {
    List<Object> args = new ArrayList<>();
    String keys = dialect.bizIdsIn("biz", "id", biz, ids, args);
    args.add(false);
    jdbc.query(
        "SELECT id, title, author_id FROM hr_item WHERE " + keys + " AND deleted = ?",
        rs -> {
          long id = rs.getLong("id");
          found.put(id, new ItemCards.Heading(id, rs.getString("title"), rs.getLong("author_id")));
        },
        args.toArray());
  }

  /** Authors, tags and attributes of the given live items of one biz, by id. */
  public Map<Long, ItemCards.Labels> labels(String biz, Collection<Long> ids) {
    Map<Long, ItemCards.Labels> found = new HashMap<>();
    if (ids.isEmpty()) {
      return found;
    }
    List<Object> args = new ArrayList<>();
    String keys = dialect.bizIdsIn("biz", "id", biz, ids, args);
    args.add(false);
    jdbc.query(
        "SELECT id, author_id, tags, attributes, version FROM hr_item WHERE "
            + keys
            + " AND deleted = ?",
        rs -> {
          found.put(rs.getLong("id"), labels(rs));
        },
        args.toArray());
    return found;
  }

  /**
   * Labels from the stored columns {@code author_id}, {@code tags} (comma-joined), {@code
   * attributes} (canonical JSON) and {@code version} of the row at hand.
   */
  static ItemCards.Labels labels(java.sql.ResultSet rs) throws java.sql.SQLException {
    return LabelColumns.of(rs).labels(rs);
  }

  /**
   * The positions of the label columns in a result set, resolved once for a page of rows: a lookup
   * by name per row and column showed in a family's scan.
   */
  record LabelColumns(int author, int tags, int attributes, int version) {

    /** The positions of the label columns the result set has; 0 for one it has not. */
    static LabelColumns of(java.sql.ResultSet rs) throws java.sql.SQLException {
      return new LabelColumns(
          column(rs, "author_id"),
          column(rs, "tags"),
          column(rs, "attributes"),
          column(rs, "version"));
    }

    /**
     * A column's position by the driver's own lookup (a card read resolves them per row), or 0 when
     * the result set has no such column (a scan that asked for fewer labels).
     */
    private static int column(java.sql.ResultSet rs, String name) {
      try {
        return rs.findColumn(name);
      } catch (java.sql.SQLException absent) {
        return 0;
      }
    }

    /** The row's labels; one the result set has not is left empty (0, no tags, no attributes). */
    ItemCards.Labels labels(java.sql.ResultSet rs) throws java.sql.SQLException {
      String joined = tags == 0 ? "" : rs.getString(tags);
      return new ItemCards.Labels(
          author == 0 ? 0 : rs.getLong(author),
          joined.isEmpty() ? List.of() : List.of(joined.split(",")),
          attributes == 0
              ? java.util.Collections.emptySortedMap()
              : ItemAttributes.decode(rs.getString(attributes)),
          version == 0 ? 0 : rs.getLong(version));
    }
  }

  /**
   * Updates the descriptive fields of a live item and raises its version; createdAt never changes.
   */
  public boolean update(
      String biz,
      long id,
      long authorId,
      String title,
      List<String> tags,
      SortedMap<String, String> attributes,
      Instant now) {
    return jdbc.update(
                "UPDATE hr_item SET author_id = ?, title = ?, tags = ?, attributes = ?,"
                    + " updated_at = ?, version = version + 1"
                    + " WHERE biz = ? AND id = ? AND deleted = ?",
                authorId,
                title,
                String.join(",", tags),
                ItemAttributes.encode(attributes),
                now.toEpochMilli(),
                biz,
                id,
                false)
            == 1
        && reindexTags(biz, id, tags);
  }

  private boolean reindexTags(String biz, long id, List<String> tags) {
    dropTags(biz, id);
    Long createdAt =
        jdbc.queryForObject(
            "SELECT created_at FROM hr_item WHERE biz = ? AND id = ?", Long.class, biz, id);
    indexTags(biz, id, tags, createdAt == null ? 0 : createdAt);
    return true;
  }

  /** Marks a live item deleted; false if there was no live item. */
  public boolean markDeleted(String biz, long id, Instant now) {
    boolean deleted =
        jdbc.update(
                "UPDATE hr_item SET deleted = ?, updated_at = ?, version = version + 1"
                    + " WHERE biz = ? AND id = ? AND deleted = ?",
                true,
                now.toEpochMilli(),
                biz,
                id,
                false)
            == 1;
    if (deleted) {
      dropTags(biz, id);
    }
    return deleted;
  }

  /** The version of an item, live or deleted (see {@link Stored#version}). */
  public long version(String biz, long id) {
    Long version =
        jdbc.queryForObject(
            "SELECT version FROM hr_item WHERE biz = ? AND id = ?", Long.class, biz, id);
    return version == null ? 0 : version;
  }

  /** Whether any item, live or deleted, has this biz and id. */
  public boolean existsIncludingDeleted(String biz, long id) {
    Integer n =
        jdbc.queryForObject(
            "SELECT COUNT(*) FROM hr_item WHERE biz = ? AND id = ?", Integer.class, biz, id);
    return n != null && n > 0;
  }

  /**
   * Whether each of the given items is deleted, in one query; ids that no item ever had are absent
   * from the result.
   */
  public Map<Long, Boolean> deletedFlags(String biz, Collection<Long> ids) {
    if (ids.isEmpty()) {
      return Map.of();
    }
    List<Object> args = new ArrayList<>();
    String keys = dialect.bizIdsIn("biz", "id", biz, ids, args);
    Map<Long, Boolean> flags = new HashMap<>();
    jdbc.query(
        "SELECT id, deleted FROM hr_item WHERE " + keys,
        rs -> {
          flags.put(rs.getLong("id"), rs.getBoolean("deleted"));
        },
        args.toArray());
    return flags;
  }

  /** How many items of a biz exist, live or deleted. */
  public long count(String biz) {
    Long n = jdbc.queryForObject("SELECT COUNT(*) FROM hr_item WHERE biz = ?", Long.class, biz);
    return n == null ? 0 : n;
  }

  /**
   * Hands every id of a biz, live or deleted, to {@code ids}, in ascending order, read in pages of
   * {@code page} by the primary key (each page an index range scan).
   */
  public void forEachId(String biz, int page, LongConsumer ids) {
    long after = 0;
    while (true) {
      List<Long> read =
          jdbc.queryForList(
              "SELECT id FROM hr_item WHERE biz = ? AND id > ? ORDER BY id LIMIT ?",
              Long.class,
              biz,
              after,
              page);
      read.forEach(ids::accept);
      if (read.size() < page) {
        return;
      }
      after = read.getLast();
    }
  }

  /**
   * Takes the next generated id of a biz. Must run in its own short transaction: the sequence row
   * stays locked until it commits.
   *
   * @throws ItemIdsExhaustedException if the next id would exceed {@link ItemService#MAX_ID}; the
   *     sequence is then left as it was (the caller's transaction rolls back)
   */
  public long nextId(String biz) {
    // A sequence already past the cap (raised by an explicit id before ids were capped) is not
    // advanced: next_id + 1 could overflow in the database.
    List<Long> next =
        jdbc.queryForList(
            "SELECT next_id FROM " + SEQUENCE + " WHERE " + SEQUENCE_KEY + " = ?", Long.class, biz);
    if (!next.isEmpty() && next.getFirst() > ItemService.MAX_ID) {
      throw new ItemIdsExhaustedException(biz);
    }
    long taken = dialect.takeNextInSequence(jdbc, SEQUENCE, SEQUENCE_KEY, biz);
    if (taken > ItemService.MAX_ID) {
      // Thrown inside the caller's transaction, which rolls the step back.
      throw new ItemIdsExhaustedException(biz);
    }
    return taken;
  }

  /**
   * Keeps generated ids of a biz above an id a client chose (at most {@link ItemService#MAX_ID}, so
   * the sequence ends at most one above it). In the insert's transaction.
   */
  public void reserveId(String biz, long id) {
    dialect.raiseSequence(jdbc, SEQUENCE, SEQUENCE_KEY, biz, Math.addExact(id, 1));
  }

  private static Stored stored(ResultSet rs, int row) throws SQLException {
    String tags = rs.getString("tags");
    return new Stored(
        rs.getString("biz"),
        rs.getLong("id"),
        rs.getLong("author_id"),
        rs.getString("title"),
        tags.isEmpty() ? List.of() : List.of(tags.split(",")),
        ItemAttributes.decode(rs.getString("attributes")),
        Instant.ofEpochMilli(rs.getLong("created_at")),
        Instant.ofEpochMilli(rs.getLong("updated_at")),
        rs.getLong("version"),
        rs.getBoolean("deleted"));
  }
}
