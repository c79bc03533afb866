package io.hotrank.board.publish;

import io.hotrank.board.BoardControl;
import io.hotrank.board.ControlAction;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

/**
 * The one owner of {@code hr_board_control}, {@code hr_board_control_lock} and {@code
 * hr_second_chance}: operators' controls, one per board and item, and the second chances given.
 * Writes join the caller's transaction (the change and its audit entry commit together); reads by a
 * publish run on their own. Every statement binds its parameters. Thread-safe.
 */
@Component
public class BoardControlStore {

  private static final String COLUMNS =
      "board, item_id, action, position, factor, expires_at, reason, actor, set_at";

  private static final RowMapper<BoardControl> ROW = BoardControlStore::row;

  /** How many times the creation of a board's lock row is tried in all. */
  private static final int LOCK_ROW_ATTEMPTS = 3;

  private final JdbcTemplate jdbc;

  BoardControlStore(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * Every stored control of a board, expired ones included (a publish ignores those, the expiry job
   * deletes them): one query on the primary key's prefix.
   */
  public List<BoardControl> all(String board) {
    return jdbc.query("SELECT " + COLUMNS + " FROM hr_board_control WHERE board = ?", ROW, board);
  }

  /** Every stored control of the given boards (a family and one of its segments), in one query. */
  public List<BoardControl> all(List<String> boards) {
    return jdbc.query(
        "SELECT "
            + COLUMNS
            + " FROM hr_board_control WHERE board IN ("
            + String.join(", ", java.util.Collections.nCopies(boards.size(), "?"))
            + ")",
        ROW,
        boards.toArray());
  }

  /** The control of one item on one board, if stored. */
  public Optional<BoardControl> find(String board, long itemId) {
    return jdbc
        .query(
            "SELECT " + COLUMNS + " FROM hr_board_control WHERE board = ? AND item_id = ?",
            ROW,
            board,
            itemId)
        .stream()
        .findFirst();
  }

  /**
   * Makes sure the board's lock row exists, in its own auto-committed statement: inserted on first
   * use, and a duplicate (another instance inserted it first) is the expected outcome. Called
   * before the change's transaction, since a failed INSERT would abort a PostgreSQL transaction.
   */
  public void ensureLockRow(String board) {
    for (int attempt = 1; ; attempt++) {
      if (!jdbc.queryForList(
              "SELECT board FROM hr_board_control_lock WHERE board = ?", String.class, board)
          .isEmpty()) {
        return;
      }
      try {
        jdbc.update("INSERT INTO hr_board_control_lock (board) VALUES (?)", board);
        return;
      } catch (DataIntegrityViolationException | PessimisticLockingFailureException raced) {
        // Another change of the board inserted it meanwhile (InnoDB may report a race of three
        // such inserts as a deadlock of one): it exists, as wanted, which the next turn checks.
        if (attempt == LOCK_ROW_ATTEMPTS) {
          throw raced;
        }
      }
    }
  }

  /**
   * Takes the board's lock row FOR UPDATE on the caller's transaction: until it ends, no other
   * change of this board (on any instance) passes this point.
   *
   * @throws IllegalStateException if the row is missing ({@link #ensureLockRow} was not called)
   */
  public void lockBoard(String board) {
    List<String> locked =
        jdbc.queryForList(
            "SELECT board FROM hr_board_control_lock WHERE board = ? FOR UPDATE",
            String.class,
            board);
    if (locked.isEmpty()) {
      throw new IllegalStateException("no lock row for board " + board);
    }
  }

  /**
   * Stores a control, replacing the item's previous one. On the caller's transaction, which holds
   * the board's lock row ({@link #lockBoard}), so no other change of this board runs between the
   * caller's read of the previous control and this write.
   *
   * <p>A plain INSERT when there was none, an UPDATE when there was: never an UPDATE of a missing
   * key first, which under InnoDB's REPEATABLE READ takes a gap lock that two boards' INSERTs then
   * deadlock on.
   *
   * @param replacing whether the item has a control on this board (read under the lock)
   */
  public void put(BoardControl control, boolean replacing) {
    if (replacing) {
      jdbc.update(
          "UPDATE hr_board_control SET action = ?, position = ?, factor = ?, expires_at = ?,"
              + " reason = ?, actor = ?, set_at = ? WHERE board = ? AND item_id = ?",
          control.action().wireName(),
          control.position(),
          control.factor(),
          millis(control.expiresAt()),
          control.reason(),
          control.actor(),
          control.setAt().toEpochMilli(),
          control.board(),
          control.itemId());
    } else {
      jdbc.update(
          "INSERT INTO hr_board_control (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          control.board(),
          control.itemId(),
          control.action().wireName(),
          control.position(),
          control.factor(),
          millis(control.expiresAt()),
          control.reason(),
          control.actor(),
          control.setAt().toEpochMilli());
    }
  }

  /**
   * Deletes the control of one item on one board. On the caller's transaction.
   *
   * @return whether there was one
   */
  public boolean delete(String board, long itemId) {
    return jdbc.update(
            "DELETE FROM hr_board_control WHERE board = ? AND item_id = ?", board, itemId)
        == 1;
  }

  /**
   * Deletes one control if it is still the one read (same {@code set_at}) and has expired by {@code
   * nowMillis}: a control set anew meanwhile is not deleted. On the caller's transaction.
   *
   * @return whether it was deleted
   */
  public boolean deleteExpired(BoardControl control, long nowMillis) {
    return jdbc.update(
            "DELETE FROM hr_board_control WHERE board = ? AND item_id = ? AND set_at = ?"
                + " AND expires_at <= ?",
            control.board(),
            control.itemId(),
            control.setAt().toEpochMilli(),
            nowMillis)
        == 1;
  }

  /** Controls of every board that have expired by {@code nowMillis}, at most {@code limit}. */
  public List<BoardControl> expired(long nowMillis, int limit) {
    JdbcTemplate bounded = new JdbcTemplate(jdbc.getDataSource());
    bounded.setMaxRows(limit);
    return bounded.query(
        "SELECT " + COLUMNS + " FROM hr_board_control WHERE expires_at <= ?", ROW, nowMillis);
  }

  /**
   * Records that the item has had its second chance on the board, in the caller's transaction.
   *
   * @return false if it had one already (the row exists, on this instance or another): nothing is
   *     written
   */
  public boolean giveSecondChance(String board, long itemId, String actor, Instant at) {
    if (hadSecondChance(board, itemId)) {
      return false;
    }
    try {
      jdbc.update(
          "INSERT INTO hr_second_chance (board, item_id, given_at, actor) VALUES (?, ?, ?, ?)",
          board,
          itemId,
          at.toEpochMilli(),
          actor);
      return true;
    } catch (org.springframework.dao.DuplicateKeyException raced) {
      return false; // the board's lock row orders its changes, so only a stale read lands here
    }
  }

  /** Whether the item has had its second chance on the board. */
  public boolean hadSecondChance(String board, long itemId) {
    Integer found =
        jdbc.queryForObject(
            "SELECT COUNT(*) FROM hr_second_chance WHERE board = ? AND item_id = ?",
            Integer.class,
            board,
            itemId);
    return found != null && found > 0;
  }

  private static @Nullable Long millis(@Nullable Instant instant) {
    return instant == null ? null : instant.toEpochMilli();
  }

  private static BoardControl row(ResultSet rs, int n) throws SQLException {
    int position = rs.getInt("position");
    Integer pin = rs.wasNull() ? null : position;
    double factor = rs.getDouble("factor");
    Double boost = rs.wasNull() ? null : factor;
    long expires = rs.getLong("expires_at");
    Instant expiresAt = rs.wasNull() ? null : Instant.ofEpochMilli(expires);
    return new BoardControl(
        rs.getString("board"),
        rs.getLong("item_id"),
        ControlAction.fromWire(rs.getString("action")),
        pin,
        boost,
        expiresAt,
        rs.getString("reason"),
        rs.getString("actor"),
        Instant.ofEpochMilli(rs.getLong("set_at")));
  }
}
