package io.hotrank.feed;

import io.hotrank.storage.SqlDialect;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The one owner of {@code hr_follow} and {@code hr_follow_count}. A follow and the two counts it
 * changes are written in one transaction, which the caller owns; counts change only when a row was
 * really inserted or deleted, so repeating a follow or an unfollow changes nothing. Every statement
 * binds its parameters.
 */
@Component
class FollowStore {

  /** One side of a follow: the other user's id and when the follow was made. */
  record Edge(long userId, Instant since) {}

  /** Whose list a page is of. */
  enum Side {
    /** The authors {@code user_id} follows. */
    FOLLOWING("user_id", "author_id"),
    /** The users following {@code author_id}. */
    FOLLOWERS("author_id", "user_id");

    final String owner;
    final String other;

    Side(String owner, String other) {
      this.owner = owner;
      this.other = other;
    }
  }

  /** A user's counts. */
  record Counts(long following, long followers) {}

  private final JdbcTemplate jdbc;
  private final SqlDialect dialect;

  FollowStore(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
  }

  /**
   * Records that {@code userId} follows {@code authorId}; false if it already did. The caller's
   * transaction should be READ COMMITTED (no gap locks on InnoDB) and be retried on a deadlock.
   */
  boolean follow(long userId, long authorId, Instant at) {
    lockCounts(userId, authorId);
    int inserted =
        dialect.insertIgnoringDuplicate(
            jdbc,
            "hr_follow",
            "user_id, author_id, created_at",
            userId,
            authorId,
            at.toEpochMilli());
    if (inserted == 1) {
      count(userId, authorId, 1);
    }
    return inserted == 1;
  }

  /** Removes the follow; false if there was none. The same transaction as {@link #follow}. */
  boolean unfollow(long userId, long authorId) {
    lockCounts(userId, authorId);
    int deleted =
        jdbc.update("DELETE FROM hr_follow WHERE user_id = ? AND author_id = ?", userId, authorId);
    if (deleted == 1) {
      count(userId, authorId, -1);
    }
    return deleted == 1;
  }

  /**
   * Locks both users' count rows, creating them if needed, in id order: every change to a follow
   * first holds the counts of both its users, so two changes of one pair queue here, and a follow
   * of A by B racing one of B by A take the same two locks in the same order.
   */
  private void lockCounts(long userId, long authorId) {
    for (long id : new long[] {Math.min(userId, authorId), Math.max(userId, authorId)}) {
      if (!lockCount(id)) {
        dialect.insertIgnoringDuplicate(jdbc, "hr_follow_count", "user_id", id);
        lockCount(id);
      }
    }
  }

  private boolean lockCount(long id) {
    return !jdbc.queryForList(
            "SELECT user_id FROM hr_follow_count WHERE user_id = ? FOR UPDATE", Long.class, id)
        .isEmpty();
  }

  private void count(long userId, long authorId, int delta) {
    jdbc.update(
        "UPDATE hr_follow_count SET following = following + ? WHERE user_id = ?", delta, userId);
    jdbc.update(
        "UPDATE hr_follow_count SET followers = followers + ? WHERE user_id = ?", delta, authorId);
  }

  /** Makes committed follow changes survive a crash of the process (see the dialects). */
  void makeCommitsDurable() {
    dialect.makeCommitsDurable(jdbc);
  }

  /** Whether {@code userId} follows {@code authorId}. */
  boolean follows(long userId, long authorId) {
    Integer n =
        jdbc.queryForObject(
            "SELECT COUNT(*) FROM hr_follow WHERE user_id = ? AND author_id = ?",
            Integer.class,
            userId,
            authorId);
    return n != null && n > 0;
  }

  /** The counts of a user, zero for one never followed nor following. */
  Counts counts(long userId) {
    List<Counts> rows =
        jdbc.query(
            "SELECT following, followers FROM hr_follow_count WHERE user_id = ?",
            (rs, i) -> new Counts(rs.getLong("following"), rs.getLong("followers")),
            userId);
    return rows.isEmpty() ? new Counts(0, 0) : rows.getFirst();
  }

  /**
   * One page of a user's list, newest follow first (ties by id, descending), strictly after {@code
   * after} in that order.
   */
  List<Edge> page(Side side, long owner, @Nullable Edge after, int limit) {
    String select =
        "SELECT "
            + side.other
            + " AS other, created_at FROM hr_follow WHERE "
            + side.owner
            + " = ?";
    String order = " ORDER BY created_at DESC, " + side.other + " DESC LIMIT ?";
    if (after == null) {
      return jdbc.query(select + order, (rs, i) -> edge(rs), owner, limit);
    }
    long at = after.since().toEpochMilli();
    // The first bound repeats the second's for the planners that bound an index range only with
    // a plain comparison (PostgreSQL, H2).
    return jdbc.query(
        select
            + " AND created_at <= ? AND (created_at < ? OR (created_at = ? AND "
            + side.other
            + " < ?))"
            + order,
        (rs, i) -> edge(rs),
        owner,
        at,
        at,
        at,
        after.userId(),
        limit);
  }

  /** Every author {@code userId} follows (for reading a following feed). */
  List<Long> authorsFollowedBy(long userId) {
    return jdbc.queryForList(
        "SELECT author_id FROM hr_follow WHERE user_id = ?", Long.class, userId);
  }

  private static Edge edge(java.sql.ResultSet rs) throws java.sql.SQLException {
    return new Edge(rs.getLong("other"), Instant.ofEpochMilli(rs.getLong("created_at")));
  }
}
