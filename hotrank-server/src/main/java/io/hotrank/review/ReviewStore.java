package io.hotrank.review;

import io.hotrank.storage.SqlDialect;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The one owner of {@code hr_review_decision} and {@code hr_review_queue}. Instants are epoch
 * milliseconds. Every statement binds its parameters; callers own the transactions. Thread-safe.
 */
final class ReviewStore {

  /** Ids per IN list. */
  private static final int IDS_PER_QUERY = 500;

  private static final String DECISION =
      "subject, biz, subject_id, status, reason, decided_by," + " decided_at";

  private static final RowMapper<ReviewDecision> DECISION_ROW =
      (rs, n) ->
          new ReviewDecision(
              rs.getString(1),
              rs.getString(2),
              rs.getLong(3),
              ReviewStatus.valueOf(rs.getString(4)),
              rs.getString(5),
              rs.getString(6),
              Instant.ofEpochMilli(rs.getLong(7)));

  /** A queued item as stored. */
  record Queued(
      String board,
      String biz,
      long itemId,
      long authorId,
      int wouldRank,
      String evidence,
      Instant since,
      Instant seenAt) {}

  private static final RowMapper<Queued> QUEUED_ROW =
      (rs, n) ->
          new Queued(
              rs.getString(1),
              rs.getString(2),
              rs.getLong(3),
              rs.getLong(4),
              rs.getInt(5),
              rs.getString(6),
              Instant.ofEpochMilli(rs.getLong(7)),
              Instant.ofEpochMilli(rs.getLong(8)));

  private final JdbcTemplate jdbc;
  private final SqlDialect dialect;

  ReviewStore(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
  }

  /** A decision, its row locked until the caller's transaction ends. */
  Optional<ReviewDecision> lock(String subject, String biz, long id) {
    return jdbc
        .query(
            "SELECT "
                + DECISION
                + " FROM hr_review_decision WHERE subject = ? AND biz = ? AND subject_id = ? FOR"
                + " UPDATE",
            DECISION_ROW,
            subject,
            biz,
            id)
        .stream()
        .findFirst();
  }

  /**
   * Stores a decision, replacing the subject's previous one (also when a concurrent first decision
   * inserted its row meanwhile).
   */
  void put(ReviewDecision d) {
    if (update(d) == 0
        && dialect.insertIgnoringDuplicate(
                jdbc,
                "hr_review_decision",
                DECISION,
                d.subject(),
                d.biz(),
                d.id(),
                d.status().name(),
                d.reason(),
                d.decidedBy(),
                d.decidedAt().toEpochMilli())
            == 0) {
      update(d);
    }
  }

  private int update(ReviewDecision d) {
    return jdbc.update(
        "UPDATE hr_review_decision SET status = ?, reason = ?, decided_by = ?, decided_at = ?"
            + " WHERE subject = ? AND biz = ? AND subject_id = ?",
        d.status().name(),
        d.reason(),
        d.decidedBy(),
        d.decidedAt().toEpochMilli(),
        d.subject(),
        d.biz(),
        d.id());
  }

  /** The decisions on these items of one biz, by item id. */
  Map<Long, ReviewDecision> items(String biz, Collection<Long> ids) {
    return decisions(ReviewDecision.ITEM, biz, ids);
  }

  /** The decisions on these authors, by author id. */
  Map<Long, ReviewDecision> authors(Collection<Long> ids) {
    return decisions(ReviewDecision.AUTHOR, "", ids);
  }

  private Map<Long, ReviewDecision> decisions(String subject, String biz, Collection<Long> ids) {
    Map<Long, ReviewDecision> found = new HashMap<>();
    List<Long> distinct = ids.stream().distinct().toList();
    for (int from = 0; from < distinct.size(); from += IDS_PER_QUERY) {
      List<Long> chunk = distinct.subList(from, Math.min(distinct.size(), from + IDS_PER_QUERY));
      List<Object> args = new ArrayList<>(chunk.size() + 2);
      args.add(subject);
      args.add(biz);
      args.addAll(chunk);
      jdbc.query(
          "SELECT "
              + DECISION
              + " FROM hr_review_decision WHERE subject = ? AND biz = ? AND subject_id IN ("
              + SqlDialect.placeholders(chunk.size())
              + ")",
          rs -> {
            ReviewDecision d = DECISION_ROW.mapRow(rs, 0);
            found.put(d.id(), d);
          },
          args.toArray());
    }
    return found;
  }

  /** Up to {@code limit} decisions of this status, the newest first. */
  List<ReviewDecision> decided(ReviewStatus status, int limit) {
    return jdbc.query(
        "SELECT "
            + DECISION
            + " FROM hr_review_decision WHERE status = ? ORDER BY decided_at DESC, subject,"
            + " subject_id LIMIT ?",
        DECISION_ROW,
        status.name(),
        limit);
  }

  /**
   * Makes a board's queue what {@code queued} says: their rows updated (their {@code since} kept)
   * or inserted, every other row of the board deleted.
   */
  void replaceQueue(String board, List<Queued> queued) {
    List<Object[]> updates = new ArrayList<>(queued.size());
    for (Queued q : queued) {
      updates.add(
          new Object[] {
            q.wouldRank(), q.evidence(), q.seenAt().toEpochMilli(), q.authorId(), board, q.itemId()
          });
    }
    int[] updated =
        jdbc.batchUpdate(
            "UPDATE hr_review_queue SET would_rank = ?, evidence = ?, seen_at = ?, author_id = ?"
                + " WHERE board = ? AND item_id = ?",
            updates);
    for (int i = 0; i < queued.size(); i++) {
      if (updated[i] == 0) {
        Queued q = queued.get(i);
        dialect.insertIgnoringDuplicate(
            jdbc,
            "hr_review_queue",
            "board, item_id, biz, author_id, would_rank, evidence, since, seen_at",
            board,
            q.itemId(),
            q.biz(),
            q.authorId(),
            q.wouldRank(),
            q.evidence(),
            q.since().toEpochMilli(),
            q.seenAt().toEpochMilli());
      }
    }
    List<Object> keep = new ArrayList<>(queued.size() + 1);
    keep.add(board);
    queued.forEach(q -> keep.add(q.itemId()));
    jdbc.update(
        "DELETE FROM hr_review_queue WHERE board = ?"
            + (queued.isEmpty()
                ? ""
                : " AND item_id NOT IN (" + SqlDialect.placeholders(queued.size()) + ")"),
        keep.toArray());
  }

  /** Takes an item out of every board's queue. */
  void dequeueItem(String biz, long itemId) {
    jdbc.update("DELETE FROM hr_review_queue WHERE biz = ? AND item_id = ?", biz, itemId);
  }

  /**
   * Takes an author's items out of every board's queue, but those with a decision of their own
   * (which wins over the author's).
   */
  void dequeueAuthor(long authorId) {
    jdbc.update(
        "DELETE FROM hr_review_queue WHERE author_id = ? AND NOT EXISTS (SELECT 1 FROM"
            + " hr_review_decision d WHERE d.subject = ? AND d.biz = hr_review_queue.biz AND"
            + " d.subject_id = hr_review_queue.item_id)",
        authorId,
        ReviewDecision.ITEM);
  }

  /**
   * Up to {@code limit} queued items, the best would-be rank first, then the longest waiting.
   *
   * @param board a board's name: its rows and its segments'; null for every board
   */
  List<Queued> queue(@Nullable String board, int limit) {
    String columns =
        "SELECT board, biz, item_id, author_id, would_rank, evidence, since, seen_at FROM"
            + " hr_review_queue";
    String order = " ORDER BY would_rank, since, board, item_id LIMIT ?";
    if (board == null) {
      return jdbc.query(columns + order, QUEUED_ROW, limit);
    }
    return jdbc.query(
        columns + " WHERE board = ? OR board LIKE ? ESCAPE '!'" + order,
        QUEUED_ROW,
        board,
        board.replace("_", "!_") + "/%",
        limit);
  }

  /** How many distinct items wait in the queue, on any board. */
  long queued() {
    Long n =
        jdbc.queryForObject(
            "SELECT COUNT(*) FROM (SELECT DISTINCT biz, item_id FROM hr_review_queue) q",
            Long.class);
    return n == null ? 0 : n;
  }

  /** The queued items of one board. */
  Map<Long, Queued> queueOf(String board) {
    Map<Long, Queued> found = new HashMap<>();
    jdbc.query(
        "SELECT board, biz, item_id, author_id, would_rank, evidence, since, seen_at FROM"
            + " hr_review_queue WHERE board = ?",
        rs -> {
          Queued q = QUEUED_ROW.mapRow(rs, 0);
          found.put(q.itemId(), q);
        },
        board);
    return found;
  }
}
