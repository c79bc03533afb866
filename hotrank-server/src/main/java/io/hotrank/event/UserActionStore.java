package io.hotrank.event;

import io.hotrank.storage.SqlDialect;
import java.time.Instant;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The one owner of {@code hr_user_action}: one row per (biz, item, user, action) that a user has
 * done and not undone, which makes like and collect idempotent per user. Every statement binds its
 * parameters. Callers own the transactions.
 */
@Component
public class UserActionStore {

  private static final String TABLE = "hr_user_action";
  private static final String COLUMNS = "biz, item_id, user_id, action, created_at";

  private final JdbcTemplate jdbc;
  private final SqlDialect dialect;

  public UserActionStore(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
  }

  /** Records that the user did the action; false if it was recorded already. */
  public boolean record(String biz, long itemId, long userId, String action, Instant now) {
    return dialect.insertIgnoringDuplicate(
            jdbc, TABLE, COLUMNS, biz, itemId, userId, action, now.toEpochMilli())
        == 1;
  }

  /** Removes the user's action; false if there was none to remove. */
  public boolean remove(String biz, long itemId, long userId, String action) {
    return jdbc.update(
            "DELETE FROM hr_user_action WHERE biz = ? AND item_id = ? AND user_id = ?"
                + " AND action = ?",
            biz,
            itemId,
            userId,
            action)
        == 1;
  }

  /** Whether the user's action is recorded. */
  public boolean exists(String biz, long itemId, long userId, String action) {
    Integer n =
        jdbc.queryForObject(
            "SELECT COUNT(*) FROM hr_user_action WHERE biz = ? AND item_id = ? AND user_id = ?"
                + " AND action = ?",
            Integer.class,
            biz,
            itemId,
            userId,
            action);
    return n != null && n > 0;
  }
}
