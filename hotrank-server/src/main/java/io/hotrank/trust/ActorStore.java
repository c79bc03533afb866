package io.hotrank.trust;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The one owner of {@code hr_actor}: one row per actor the platform sent or an operator flagged.
 * Instants are epoch milliseconds; {@code created_at} is null for an actor only an operator
 * flagged. Every statement binds its parameters; callers own the transactions.
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

  private final JdbcTemplate jdbc;

  ActorStore(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  Optional<Actor> find(long userId) {
    List<Actor> found =
        jdbc.query("SELECT " + COLUMNS + " FROM hr_actor WHERE user_id = ?", ROW, userId);
    return found.stream().findFirst();
  }

  /**
   * Stores what the platform says of an actor, keeping an operator's flag.
   *
   * @return whether the actor was new
   */
  boolean put(long userId, Instant createdAt, boolean bot, double trust, long now) {
    if (update(userId, createdAt, bot, trust, now)) {
      return false;
    }
    try {
      jdbc.update(
          "INSERT INTO hr_actor (user_id, created_at, bot, trust, updated_at) VALUES (?, ?, ?, ?,"
              + " ?)",
          userId,
          createdAt.toEpochMilli(),
          bot,
          trust,
          now);
      return true;
    } catch (DuplicateKeyException raced) {
      // Another request stored it first: this one's values win, as the later write.
      update(userId, createdAt, bot, trust, now);
      return false;
    }
  }

  private boolean update(long userId, Instant createdAt, boolean bot, double trust, long now) {
    return jdbc.update(
            "UPDATE hr_actor SET created_at = ?, bot = ?, trust = ?, updated_at = ? WHERE user_id"
                + " = ?",
            createdAt.toEpochMilli(),
            bot,
            trust,
            now,
            userId)
        == 1;
  }

  /**
   * Flags an actor, storing one with the defaults (unknown age, not a bot, full trust) when the
   * platform never sent it.
   */
  void flag(long userId, String reason, String by, long now) {
    int updated =
        jdbc.update(
            "UPDATE hr_actor SET flag_reason = ?, flagged_by = ?, flagged_at = ?, updated_at = ?"
                + " WHERE user_id = ?",
            reason,
            by,
            now,
            now,
            userId);
    if (updated == 1) {
      return;
    }
    try {
      jdbc.update(
          "INSERT INTO hr_actor (user_id, bot, trust, flag_reason, flagged_by, flagged_at,"
              + " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
          userId,
          false,
          1.0,
          reason,
          by,
          now,
          now);
    } catch (DuplicateKeyException raced) {
      flag(userId, reason, by, now);
    }
  }

  /** Clears an actor's flag; false when it was not flagged (or is unknown). */
  boolean unflag(long userId, long now) {
    return jdbc.update(
            "UPDATE hr_actor SET flag_reason = NULL, flagged_by = NULL, flagged_at = NULL,"
                + " updated_at = ? WHERE user_id = ? AND flag_reason IS NOT NULL",
            now,
            userId)
        == 1;
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
