package io.hotrank.board;

import io.hotrank.core.score.Interactions;
import io.hotrank.item.ItemStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The SQL of a board computation: a keyset scan of the live items of one biz created inside the
 * window with their counters, then one query joining in the details of the winners.
 *
 * <p>The scan pages on {@code (created_at, item_id)} along the index {@code hr_item_counter (biz,
 * created_at, item_id)}: each page starts strictly after the last row of the previous one, so the
 * cost of a page does not grow with its position (as OFFSET's would) and rows inserted meanwhile
 * neither shift nor repeat others. It reads the counter table alone, which carries copies of the
 * item's createdAt and deleted flag (see the migration): joining {@code hr_item} per page made
 * PostgreSQL probe one counter row per scanned item, which cost twice the scan itself. Titles and
 * authors are fetched for the Top-N only, in one query, which keeps the scan narrow.
 */
@Repository
public class WindowScan {

  /** The page query; public so that the benchmark's raw scan reads exactly these rows. */
  public static final String PAGE =
      "SELECT c.item_id, c.created_at, c.like_cnt, c.view_cnt, c.comment_cnt, c.share_cnt,"
          + " c.collect_cnt, c.dislike_cnt"
          + " FROM hr_item_counter c"
          + " WHERE c.biz = ? AND c.deleted = ? AND c.created_at >= ? AND c.created_at <= ?"
          + " AND (c.created_at > ? OR c.item_id > ?)"
          + " ORDER BY c.created_at, c.item_id LIMIT ?";

  private final JdbcTemplate jdbc;

  WindowScan(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** One scanned row: what scoring needs and nothing more. */
  record Row(long id, long createdAtMillis, Interactions counts) {}

  /** What the board shows of an item besides its score and counts. */
  record Details(String title, long authorId) {}

  /**
   * Feeds every live item of {@code biz} created in {@code [from, to]} to {@code sink}, in
   * (created_at, id) order.
   *
   * @param cancelled checked between pages; when it turns true the scan stops by throwing
   * @return the number of rows scanned
   * @throws ComputationAbandonedException if cancelled
   */
  long scan(
      String biz,
      Instant from,
      Instant to,
      int pageSize,
      BooleanSupplier cancelled,
      java.util.function.Consumer<Row> sink) {
    long afterCreated = from.toEpochMilli();
    // Item ids are positive, so id > 0 admits every row at the lower bound on the first page.
    long afterId = 0;
    boolean first = true;
    long scanned = 0;
    while (true) {
      if (cancelled.getAsBoolean()) {
        throw new ComputationAbandonedException(biz);
      }
      List<Row> page = new ArrayList<>(pageSize);
      long lowerBound = afterCreated;
      jdbc.query(
          PAGE,
          rs -> {
            page.add(new Row(rs.getLong(1), rs.getLong(2), ItemStore.interactions(rs, 3)));
          },
          biz,
          false,
          lowerBound,
          to.toEpochMilli(),
          first ? lowerBound - 1 : lowerBound,
          afterId,
          pageSize);
      page.forEach(sink);
      scanned += page.size();
      if (page.size() < pageSize) {
        return scanned;
      }
      Row last = page.getLast();
      afterCreated = last.createdAtMillis();
      afterId = last.id();
      first = false;
    }
  }

  /** Titles and authors of the given live items of one biz; deleted ones are absent. */
  Map<Long, Details> details(String biz, Collection<Long> ids) {
    Map<Long, Details> found = new HashMap<>();
    if (ids.isEmpty()) {
      return found;
    }
    Object[] args = new Object[ids.size() + 2];
    args[0] = biz;
    args[1] = false;
    int i = 2;
    for (Long id : ids) {
      args[i++] = id;
    }
    jdbc.query(
        "SELECT id, title, author_id FROM hr_item WHERE biz = ? AND deleted = ? AND id IN ("
            + String.join(", ", Collections.nCopies(ids.size(), "?"))
            + ")",
        rs -> {
          found.put(rs.getLong(1), new Details(rs.getString(2), rs.getLong(3)));
        },
        args);
    return found;
  }
}
