package io.hotrank.item;

import io.hotrank.core.score.InteractionType;
import io.hotrank.core.score.Interactions;
import io.hotrank.storage.SqlDialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The one owner of {@code hr_item_counter}: the interaction counters of each item, with copies of
 * its createdAt, deleted flag and labels (author, tags, attributes, version) so that the ranking
 * scan, segmented or not, reads this table alone.
 *
 * <p>The window page walks the index {@code hr_item_counter (biz, created_at, item_id)} with keyset
 * pagination: each page starts strictly after the last row of the previous one, so the cost of a
 * page does not grow with its position (as OFFSET's would) and rows inserted meanwhile neither
 * shift nor repeat others. Joining {@code hr_item} per page made PostgreSQL probe one item row per
 * scanned counter, which cost twice the scan itself (see the migration).
 *
 * <p>Columns are mapped by name; on the scan, names are resolved to positions once per page, not
 * once per row. Every statement binds its parameters; instants are epoch milliseconds. Callers own
 * the transactions.
 */
@Component
public class CounterStore implements CounterPages {

  /** The window page query; public so that the benchmark's raw scan reads exactly these rows. */
  public static final String WINDOW_PAGE =
      "SELECT item_id, created_at, like_cnt, view_cnt, comment_cnt, share_cnt, collect_cnt,"
          + " dislike_cnt, like_trusted, view_trusted, comment_trusted, share_trusted,"
          + " collect_trusted, dislike_trusted FROM hr_item_counter"
          + " WHERE biz = ? AND deleted = ? AND created_at >= ? AND created_at <= ?"
          + " AND (created_at > ? OR item_id > ?)"
          + " ORDER BY created_at, item_id LIMIT ?";

  /**
   * {@link #WINDOW_PAGE} with the labels asked of each item, read from their copies on the counter
   * row (V16): one index range scan, no join.
   */
  static String labelledWindowPage(Set<Label> labels) {
    StringBuilder columns = new StringBuilder();
    for (Label label : labels) {
      columns.append(
          switch (label) {
            case AUTHOR -> ", author_id";
            case TAGS -> ", tags";
            case ATTRIBUTES -> ", attributes";
            case VERSION -> ", item_version AS version";
          });
    }
    return "SELECT item_id, created_at, like_cnt, view_cnt, comment_cnt, share_cnt, collect_cnt,"
        + " dislike_cnt, like_trusted, view_trusted, comment_trusted, share_trusted,"
        + " collect_trusted, dislike_trusted"
        + columns
        + " FROM hr_item_counter"
        + " WHERE biz = ? AND deleted = ? AND created_at >= ? AND created_at <= ?"
        + " AND (created_at > ? OR item_id > ?)"
        + " ORDER BY created_at, item_id LIMIT ?";
  }

  /** Items per IN list. */
  private static final int KEYS_PER_STATEMENT = 500;

  private static final String COUNTER_COLUMNS =
      "like_cnt, view_cnt, comment_cnt, share_cnt, collect_cnt, dislike_cnt, like_trusted,"
          + " view_trusted, comment_trusted, share_trusted, collect_trusted, dislike_trusted";

  private final JdbcTemplate jdbc;
  private final boolean arrays;
  private final boolean unnest;
  private final SqlDialect dialect;

  public CounterStore(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.arrays = dialect.supportsArrayParameters();
    this.unnest = dialect.supportsUnnest();
    this.dialect = dialect;
  }

  /**
   * Creates the zero counters of a new item, with copies of its labels (version 1, the item row's
   * first). In the item insert's transaction.
   */
  public void insertZero(
      String biz, long id, Instant createdAt, ItemCards.Labels labels, Instant now) {
    jdbc.update(
        "INSERT INTO hr_item_counter (biz, item_id, created_at, deleted, updated_at, author_id,"
            + " tags, attributes, item_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        biz,
        id,
        createdAt.toEpochMilli(),
        false,
        now.toEpochMilli(),
        labels.authorId(),
        String.join(",", labels.tags()),
        ItemAttributes.encode(labels.attributes()),
        labels.version());
  }

  /** Copies an edited item's labels and version onto its counters. In the edit's transaction. */
  public void relabel(String biz, long id, ItemCards.Labels labels) {
    jdbc.update(
        "UPDATE hr_item_counter SET author_id = ?, tags = ?, attributes = ?, item_version = ?"
            + " WHERE biz = ? AND item_id = ?",
        labels.authorId(),
        String.join(",", labels.tags()),
        ItemAttributes.encode(labels.attributes()),
        labels.version(),
        biz,
        id);
  }

  /** Marks an item's counters deleted, so that the scan skips it. In the item delete's tx. */
  public void markDeleted(String biz, long id, Instant now) {
    jdbc.update(
        "UPDATE hr_item_counter SET deleted = ?, updated_at = ? WHERE biz = ? AND item_id = ?",
        true,
        now.toEpochMilli(),
        biz,
        id);
  }

  /** The counters of a live item. */
  public Optional<Counters> find(String biz, long id) {
    return jdbc
        .query(
            "SELECT "
                + COUNTER_COLUMNS
                + " FROM hr_item_counter WHERE biz = ? AND item_id = ? AND deleted = ?",
            (rs, row) -> Columns.of(rs).counters(rs),
            biz,
            id,
            false)
        .stream()
        .findFirst();
  }

  /** The twelve counter columns (raw and trusted), qualified by a table alias. */
  static String counterColumns(String alias) {
    return Arrays.stream(COUNTER_COLUMNS.split(", "))
        .map(column -> alias + "." + column)
        .collect(Collectors.joining(", "));
  }

  /** The counters in the current row, as read by a query that selected {@link #counterColumns}. */
  static Counted counted(ResultSet rs, long foldNo) throws SQLException {
    return new Counted(Columns.of(rs).counters(rs), foldNo);
  }

  /** The counters of the given live items of one biz, in one query; others are absent. */
  @Override
  public Map<Long, Counted> findAll(String biz, Collection<Long> ids) {
    Map<Long, Counted> found = new HashMap<>();
    if (ids.isEmpty()) {
      return found;
    }
    List<Object> args = new ArrayList<>();
    String keys = dialect.bizIdsIn("biz", "item_id", biz, ids, args);
    args.add(false);
    jdbc.query(
        "SELECT item_id, fold_no, "
            + COUNTER_COLUMNS
            + " FROM hr_item_counter WHERE "
            + keys
            + " AND deleted = ?",
        rs -> {
          found.put(
              rs.getLong("item_id"),
              new Counted(Columns.of(rs).counters(rs), rs.getLong("fold_no")));
        },
        args.toArray());
    return found;
  }

  /**
   * One page of the live items of {@code biz} created at or before {@code toMillis}, in
   * (created_at, item_id) order, strictly after the keyset position {@code (afterCreated,
   * afterId)}. Item ids are positive, so the first page of a window starting at {@code from} is the
   * position {@code (from, 0)}; each next page starts after the last row of the previous one. The
   * position bounds {@code created_at} from below, which keeps every page an index range scan.
   */
  @Override
  public List<CounterRow> windowPage(
      String biz, long afterCreated, long afterId, long toMillis, int limit) {
    return page(
        WINDOW_PAGE,
        rs -> (row, counters) -> counters,
        biz,
        afterCreated,
        afterId,
        toMillis,
        limit);
  }

  @Override
  public List<LabelledRow> labelledWindowPage(
      String biz, long afterCreated, long afterId, long toMillis, int limit, Set<Label> labels) {
    return page(
        labelledWindowPage(labels.isEmpty() ? EnumSet.noneOf(Label.class) : EnumSet.copyOf(labels)),
        rs -> {
          ItemStore.LabelColumns columns = ItemStore.LabelColumns.of(rs);
          return (row, counters) -> new LabelledRow(counters, columns.labels(row));
        },
        biz,
        afterCreated,
        afterId,
        toMillis,
        limit);
  }

  /**
   * What a window page makes of its rows: given the page's result set, a mapping of one row and its
   * counter part, its own columns resolved to positions once per page.
   */
  @FunctionalInterface
  private interface PageRows<T> {
    PageRow<T> columns(ResultSet rs) throws SQLException;
  }

  /** What a window page makes of one row, given its counter part. */
  @FunctionalInterface
  private interface PageRow<T> {
    T of(ResultSet rs, CounterRow counters) throws SQLException;
  }

  /** One keyset page of a window query ({@link #WINDOW_PAGE} or {@link #labelledWindowPage}). */
  private <T> List<T> page(
      String sql,
      PageRows<T> rows,
      String biz,
      long afterCreated,
      long afterId,
      long toMillis,
      int limit) {
    return jdbc.query(
        sql,
        rs -> {
          List<T> page = new ArrayList<>(limit);
          if (!rs.next()) {
            return page;
          }
          int itemId = rs.findColumn("item_id");
          int createdAt = rs.findColumn("created_at");
          Columns counts = Columns.of(rs);
          PageRow<T> row = rows.columns(rs);
          do {
            page.add(
                row.of(
                    rs,
                    new CounterRow(
                        rs.getLong(itemId),
                        rs.getLong(createdAt),
                        counts.counts(rs),
                        counts.trusted(rs))));
          } while (rs.next());
          return page;
        },
        biz,
        false,
        afterCreated,
        toMillis,
        afterCreated,
        afterId,
        limit);
  }

  /**
   * Locks the counter rows of the given live items of one biz, in id order (a fixed order keeps
   * concurrent batches from deadlocking), and returns their current values. Items that do not exist
   * or are deleted are absent from the result. Must run inside a transaction.
   *
   * @return each live item's row: its counters and createdAt
   */
  public Map<Long, CounterRow> lockCounters(String biz, Collection<Long> ids) {
    Long[] sorted = ids.stream().distinct().sorted().toArray(Long[]::new);
    Map<Long, CounterRow> counters = new HashMap<>();
    // One array holds any number of keys; placeholders are bounded per statement.
    int perStatement = arrays ? Math.max(1, sorted.length) : KEYS_PER_STATEMENT;
    for (int from = 0; from < sorted.length; from += perStatement) {
      int to = Math.min(sorted.length, from + perStatement);
      List<Object> args = new ArrayList<>(2 * (to - from) + 1);
      String keys =
          dialect.bizIdsIn("biz", "item_id", biz, Arrays.asList(sorted).subList(from, to), args);
      args.add(false);
      jdbc.query(
          "SELECT item_id, created_at, "
              + COUNTER_COLUMNS
              + " FROM hr_item_counter WHERE "
              + keys
              + " AND deleted = ? ORDER BY item_id FOR UPDATE",
          rs -> {
            long id = rs.getLong("item_id");
            Columns columns = Columns.of(rs);
            counters.put(
                id,
                new CounterRow(
                    id, rs.getLong("created_at"), columns.counts(rs), columns.trusted(rs)));
          },
          args.toArray());
    }
    return counters;
  }

  /**
   * The cards of the live items among {@code ids}, in one query (the counters joined with the
   * items' display fields); absent and deleted items are left out.
   */
  public Map<Long, ItemCards.Card> cards(String biz, Collection<Long> ids) {
    Map<Long, ItemCards.Card> cards = new HashMap<>();
    if (ids.size() > KEYS_PER_STATEMENT) {
      List<Long> all = List.copyOf(ids);
      for (int from = 0; from < all.size(); from += KEYS_PER_STATEMENT) {
        cards.putAll(
            cards(biz, all.subList(from, Math.min(all.size(), from + KEYS_PER_STATEMENT))));
      }
      return cards;
    }
    if (ids.isEmpty()) {
      return cards;
    }
    List<Object> args = new ArrayList<>();
    String keys = dialect.bizIdsIn("c.biz", "c.item_id", biz, ids, args);
    args.add(false);
    jdbc.query(
        "SELECT c.item_id, i.title, i.author_id, i.tags, i.attributes, i.version, c.created_at, "
            + COUNTER_COLUMNS
            + " FROM hr_item_counter c JOIN hr_item i ON i.biz = c.biz AND i.id = c.item_id"
            + " WHERE "
            + keys
            + " AND c.deleted = ?",
        rs -> {
          long id = rs.getLong("item_id");
          Columns columns = Columns.of(rs);
          cards.put(
              id,
              new ItemCards.Card(
                  id,
                  rs.getString("title"),
                  rs.getLong("author_id"),
                  rs.getLong("created_at"),
                  columns.counts(rs),
                  columns.trusted(rs),
                  ItemStore.labels(rs)));
        },
        args.toArray());
    return cards;
  }

  @Override
  public List<Long> authoredSince(String biz, long authorId, long fromMillis, int limit) {
    return jdbc.queryForList(
        "SELECT item_id FROM hr_item_counter WHERE biz = ? AND deleted = ? AND created_at >= ? AND"
            + " author_id = ? ORDER BY created_at DESC, item_id DESC LIMIT ?",
        Long.class,
        biz,
        false,
        fromMillis,
        authorId,
        limit);
  }

  /**
   * The live items of {@code biz} with the highest value of one counter, best first (ties: newest
   * first, then highest id), at most {@code limit}: what rebuilds a leaderboard. A scan of the
   * biz's counter rows; run on demand, not per request.
   */
  @Override
  public List<Map.Entry<Long, Long>> topBy(String biz, InteractionType counter, int limit) {
    return topBy(biz, counter, false, limit);
  }

  @Override
  public List<Map.Entry<Long, Long>> topBy(
      String biz, InteractionType counter, boolean trusted, int limit) {
    String column = trusted ? trustedColumn(counter) : column(counter);
    return jdbc.query(
        "SELECT item_id, "
            + column
            + " FROM hr_item_counter WHERE biz = ? AND deleted = ? AND "
            + column
            + " > ? ORDER BY "
            + column
            + " DESC, created_at DESC, item_id DESC LIMIT ?",
        (rs, n) -> Map.entry(rs.getLong(1), rs.getLong(2)),
        biz,
        false,
        0,
        limit);
  }

  /** The column of a trusted counter: a constant per type, never caller text. */
  private static String trustedColumn(InteractionType counter) {
    return switch (counter) {
      case LIKE -> "like_trusted";
      case VIEW -> "view_trusted";
      case COMMENT -> "comment_trusted";
      case SHARE -> "share_trusted";
      case COLLECT -> "collect_trusted";
      case DISLIKE -> "dislike_trusted";
    };
  }

  /** The column of a counter: a constant per type, never caller text. */
  private static String column(InteractionType counter) {
    return switch (counter) {
      case LIKE -> "like_cnt";
      case VIEW -> "view_cnt";
      case COMMENT -> "comment_cnt";
      case SHARE -> "share_cnt";
      case COLLECT -> "collect_cnt";
      case DISLIKE -> "dislike_cnt";
    };
  }

  /**
   * Writes absolute counter values, raw and trusted: on PostgreSQL one UPDATE joined to the values
   * as arrays, elsewhere one UPDATE per item, sent as one JDBC batch.
   *
   * @param foldNo the fold writing them: what the counters cache compares
   */
  public void writeCounters(String biz, Map<Long, Counters> counters, Instant now, long foldNo) {
    if (unnest) {
      int n = counters.size();
      Long[][] columns = new Long[13][n];
      int i = 0;
      for (Map.Entry<Long, Counters> e : counters.entrySet()) {
        columns[0][i] = e.getKey();
        Long[] values = values(e.getValue());
        for (int c = 0; c < values.length; c++) {
          columns[c + 1][i] = values[c];
        }
        i++;
      }
      Object[] args = new Object[16];
      args[0] = now.toEpochMilli();
      args[1] = foldNo;
      System.arraycopy(columns, 0, args, 2, 13);
      args[15] = biz;
      jdbc.update(
          "UPDATE hr_item_counter c SET like_cnt = v.l, view_cnt = v.v, comment_cnt = v.cm,"
              + " share_cnt = v.sh, collect_cnt = v.co, dislike_cnt = v.di, like_trusted = v.tl,"
              + " view_trusted = v.tv, comment_trusted = v.tcm, share_trusted = v.tsh,"
              + " collect_trusted = v.tco, dislike_trusted = v.tdi, updated_at = ?, fold_no = ?"
              + " FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[],"
              + " ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[],"
              + " ?::bigint[], ?::bigint[]) AS v(id, l, v, cm, sh, co, di, tl, tv, tcm, tsh, tco,"
              + " tdi) WHERE c.biz = ? AND c.item_id = v.id",
          args);
      return;
    }
    List<Object[]> rows =
        counters.entrySet().stream()
            .map(
                e -> {
                  Object[] row = new Object[16];
                  System.arraycopy(values(e.getValue()), 0, row, 0, 12);
                  row[12] = now.toEpochMilli();
                  row[13] = foldNo;
                  row[14] = biz;
                  row[15] = e.getKey();
                  return row;
                })
            .toList();
    jdbc.batchUpdate(
        "UPDATE hr_item_counter SET like_cnt = ?, view_cnt = ?, comment_cnt = ?, share_cnt = ?,"
            + " collect_cnt = ?, dislike_cnt = ?, like_trusted = ?, view_trusted = ?,"
            + " comment_trusted = ?, share_trusted = ?, collect_trusted = ?, dislike_trusted = ?,"
            + " updated_at = ?, fold_no = ? WHERE biz = ? AND item_id = ?",
        rows);
  }

  /** The twelve counter values in {@link #COUNTER_COLUMNS}' order. */
  private static Long[] values(Counters counters) {
    Long[] values = new Long[12];
    Interactions[] both = {counters.raw(), counters.trusted()};
    for (int half = 0; half < 2; half++) {
      for (InteractionType type : InteractionType.values()) {
        values[half * 6 + type.ordinal()] = type.countIn(both[half]);
      }
    }
    return values;
  }

  /**
   * Positions of the twelve counter columns in a result set, resolved by name once: the six raw
   * ones, then the six trusted ones, in {@link InteractionType} order.
   */
  private record Columns(int[] raw, int[] trusted) {

    static Columns of(ResultSet rs) throws SQLException {
      int[] raw = new int[6];
      int[] trusted = new int[6];
      for (InteractionType type : InteractionType.values()) {
        raw[type.ordinal()] = rs.findColumn(type.wireName() + "_cnt");
        trusted[type.ordinal()] = rs.findColumn(type.wireName() + "_trusted");
      }
      return new Columns(raw, trusted);
    }

    Interactions counts(ResultSet rs) throws SQLException {
      return read(rs, raw);
    }

    Interactions trusted(ResultSet rs) throws SQLException {
      return read(rs, trusted);
    }

    Counters counters(ResultSet rs) throws SQLException {
      return new Counters(counts(rs), trusted(rs));
    }

    private static Interactions read(ResultSet rs, int[] at) throws SQLException {
      return new Interactions(
          rs.getLong(at[0]),
          rs.getLong(at[1]),
          rs.getLong(at[2]),
          rs.getLong(at[3]),
          rs.getLong(at[4]),
          rs.getLong(at[5]));
    }
  }
}
