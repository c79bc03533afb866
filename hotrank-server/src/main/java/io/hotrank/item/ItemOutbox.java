package io.hotrank.item;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Items created and not yet handed on ({@code hr_item_outbox}): a row is written in the transaction
 * that creates the item, so a committed item always has one, and a consumer deletes rows once it
 * has done what they ask (the feeds' fan-out). Rows are read in the order their seqs were taken;
 * one that commits late is simply read later, since nothing remembers a position.
 */
@Component
public class ItemOutbox {

  /** A created item waiting to be handed on. */
  public record Entry(long seq, String biz, long itemId, long authorId, long createdAt) {}

  private final JdbcTemplate jdbc;

  ItemOutbox(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** Appends a created item; the caller's transaction is the item's. */
  void append(String biz, long itemId, long authorId, long createdAt) {
    jdbc.update(
        "INSERT INTO hr_item_outbox (biz, item_id, author_id, created_at) VALUES (?, ?, ?, ?)",
        biz,
        itemId,
        authorId,
        createdAt);
  }

  /** The oldest waiting entries, at most {@code limit}. */
  public List<Entry> oldest(int limit) {
    return jdbc.query(
        "SELECT seq, biz, item_id, author_id, created_at FROM hr_item_outbox ORDER BY seq LIMIT ?",
        (rs, i) ->
            new Entry(
                rs.getLong("seq"),
                rs.getString("biz"),
                rs.getLong("item_id"),
                rs.getLong("author_id"),
                rs.getLong("created_at")),
        limit);
  }

  /** Removes handled entries. */
  public void remove(Collection<Entry> entries) {
    List<Object[]> rows = new ArrayList<>();
    for (Entry e : entries) {
      rows.add(new Object[] {e.seq()});
    }
    if (!rows.isEmpty()) {
      jdbc.batchUpdate("DELETE FROM hr_item_outbox WHERE seq = ?", rows);
    }
  }

  /** How many entries wait. */
  public long size() {
    Long n = jdbc.queryForObject("SELECT COUNT(*) FROM hr_item_outbox", Long.class);
    return n == null ? 0 : n;
  }
}
