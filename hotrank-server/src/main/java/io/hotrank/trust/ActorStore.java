package io.hotrank.trust;

import io.hotrank.storage.SqlDialect;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The one owner of {@code hr_actor}: one row per actor the platform sent or an operator flagged.
 * Instants are epoch milliseconds; {@code created_at} is null for an actor only an operator
 * flagged. Every statement binds its parameters; callers own the transactions. A write locks the
 * actor's row first ({@link #lock}) and inserts only when there is none, without failing its
 * transaction when another write inserted it meanwhile (PostgreSQL aborts a transaction on a failed
 * INSERT). On MariaDB two such first writes may deadlock (the ignored insert holds a shared lock
 * that the update must upgrade): the loser is rolled back and runs again, finding the row.
 */
final class ActorStore {

  private static final String COLUMNS =
      "user_id, created_at, bot, trust, flag_reason, flagged_by, flagged_at, updated_at";

  private static final RowMapper<Actor> ROW =
      (rs, n) -> {
        long createdAt = rs.getLong(2);
        Instant created = rs.wasNull() ? null : Instant.ofEpochMilli(createdAt);
        String reason = rs.getString(5);
        Actor.Flag flag =
            reason == null
                ? null
                : new Actor.Flag(reason, rs.getString(6), Instant.ofEpochMilli(rs.getLong(7)));
        return new Actor(
            rs.getLong(1),
            created,
            rs.getBoolean(3),
            rs.getDouble(4),
            flag,
            Instant.ofEpochMilli(rs.getLong(8)));
      };

  /** Actors per IN list of {@link #findAll}. */
  private static final int IDS_PER_QUERY = 500;

  private final JdbcTemplate jdbc;
  private final SqlDialect dialect;

  ActorStore(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
  }

  Optional<Actor> find(long userId) {
    return first(jdbc.query("SELECT " + COLUMNS + " FROM hr_actor WHERE user_id = ?", ROW, userId));
  }

  /** The stored ones among the given actors, a few hundred per query. */
  Map<Long, Actor> findAll(Collection<Long> userIds) {
    Map<Long, Actor> found = new HashMap<>();
    List<Long> ids = userIds.stream().filter(id -> id != 0).distinct().toList();
    for (int from = 0; from < ids.size(); from += IDS_PER_QUERY) {
      List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + IDS_PER_QUERY));
      jdbc.query(
          "SELECT "
              + COLUMNS
              + " FROM hr_actor WHERE user_id IN ("
              + String.join(", ", Collections.nCopies(chunk.size(), "?"))
              + ")",
          rs -> {
            Actor actor = ROW.mapRow(rs, 0);
            found.put(actor.userId(), actor);
          },
          chunk.toArray());
    }
    return found;
  }

  /** The actor, its row locked until the caller's transaction ends. */
  Optional<Actor> lock(long userId) {
    return first(
        jdbc.query(
            "SELECT " + COLUMNS + " FROM hr_actor WHERE user_id = ? FOR UPDATE", ROW, userId));
  }

  /**
   * Stores what the platform says of an actor, keeping an operator's flag; in the caller's
   * transaction.
   *
   * @return whether the actor was new
   * @throws org.springframework.dao.PessimisticLockingFailureException when a concurrent first
   *     write of the same actor deadlocked with this one (MariaDB): run the transaction again
   */
  boolean put(long userId, Instant createdAt, boolean bot, double trust, long now) {
    boolean created =
        lock(userId).isEmpty()
            && insert(userId, createdAt.toEpochMilli(), bot, trust, null, null, now);
    if (!created) {
      jdbc.update(
          "UPDATE hr_actor SET created_at = ?, bot = ?, trust = ?, updated_at = ? WHERE user_id"
              + " = ?",
          createdAt.toEpochMilli(),
          bot,
          trust,
          now,
          userId);
    }
    return created;
  }

  /**
   * Stores a flagged actor with the defaults (unknown age, not a bot, full trust), unless a row
   * holds the actor already; in the caller's transaction.
   *
   * @return whether the row was inserted
   */
  boolean insertFlagged(long userId, String reason, String by, long now) {
    return insert(userId, null, false, 1.0, reason, by, now);
  }

  /** Flags a stored actor. */
  void flag(long userId, String reason, String by, long now) {
    jdbc.update(
        "UPDATE hr_actor SET flag_reason = ?, flagged_by = ?, flagged_at = ?, updated_at = ? WHERE"
            + " user_id = ?",
        reason,
        by,
        now,
        now,
        userId);
  }

  private boolean insert(
      long userId,
      @Nullable Long createdAt,
      boolean bot,
      double trust,
      @Nullable String reason,
      @Nullable String by,
      long now) {
    return dialect.insertIgnoringDuplicate(
            jdbc,
            "hr_actor",
            "user_id, created_at, bot, trust, flag_reason, flagged_by, flagged_at, updated_at",
            userId,
            createdAt,
            bot,
            trust,
            reason,
            by,
            reason == null ? null : now,
            now)
        == 1;
  }

  /** Clears a stored actor's flag. */
  void unflag(long userId, long now) {
    jdbc.update(
        "UPDATE hr_actor SET flag_reason = NULL, flagged_by = NULL, flagged_at = NULL, updated_at"
            + " = ? WHERE user_id = ?",
        now,
        userId);
  }

  private static Optional<Actor> first(List<Actor> found) {
    return found.stream().findFirst();
  }

  /** Up to {@code limit} flagged actors, the most recently flagged first. */
  List<Actor> recentlyFlagged(int limit) {
    return jdbc.query(
        "SELECT "
            + COLUMNS
            + " FROM hr_actor WHERE flag_reason IS NOT NULL ORDER BY flagged_at DESC, user_id"
            + " DESC LIMIT ?",
        ROW,
        limit);
  }
}
