package io.hotrank.ingest.log;

import io.hotrank.event.Event;
import io.hotrank.event.EventType;
import io.hotrank.ingest.IngestOutcomeUnknownException;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.ingest.fold.FoldNumbers;
import io.hotrank.storage.SqlDialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The one owner of {@code hr_event_log} and of the log's position and gaps on {@code
 * hr_fold_cursor}'s row, which it moves with the fold number in one UPDATE ({@code hr_fold} and the
 * other sources' numbers are {@link FoldNumbers}'s). Every statement binds its parameters; callers
 * own the transactions.
 */
class EventLog {

  private static final String ROW_COLUMNS = "seq, biz, item_id, type, user_id, at_ms";
  private static final RowMapper<LoggedEvent> ROW =
      (rs, n) ->
          new LoggedEvent(
              rs.getLong(1),
              rs.getString(2),
              rs.getLong(3),
              EventType.ofCode(rs.getInt(4)),
              rs.getLong(5),
              rs.getLong(6));

  private final JdbcTemplate jdbc;
  private final SqlDialect dialect;
  private final FoldNumbers numbers;

  EventLog(JdbcTemplate jdbc, SqlDialect dialect, FoldNumbers numbers) {
    this.jdbc = jdbc;
    this.dialect = dialect;
    this.numbers = numbers;
  }

  /**
   * Appends events in one multi-row INSERT (autocommitted, or in the caller's transaction), then
   * makes the commit durable where the engine does not at commit.
   */
  void append(List<Event> events) {
    try {
      insert(events);
    } catch (CannotGetJdbcConnectionException e) {
      throw e; // never sent: nothing appended
    } catch (DataAccessResourceFailureException | RecoverableDataAccessException e) {
      // The connection broke once the INSERT was sent: the database may have committed it and
      // lost only the answer.
      throw new IngestOutcomeUnknownException("the database connection failed during the write", e);
    }
    makeDurable();
  }

  /**
   * Makes what this session committed durable where the engine does not at commit.
   *
   * @throws IngestOutcomeUnknownException if that failed: committed already, and maybe durable
   */
  void makeDurable() {
    try {
      dialect.makeCommitsDurable(jdbc);
    } catch (RuntimeException e) {
      // Committed already, and maybe durable: a client must not resend it as if it never was.
      throw new IngestOutcomeUnknownException("making the write durable failed", e);
    }
  }

  /** Inserts the events in one multi-row INSERT, in the caller's transaction or autocommitted. */
  void insert(List<Event> events) {
    StringBuilder sql =
        new StringBuilder("INSERT INTO hr_event_log (biz, item_id, type, user_id, at_ms) VALUES ");
    Object[] args = new Object[events.size() * 5];
    int a = 0;
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      sql.append(i == 0 ? "(?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?)");
      args[a++] = e.biz();
      args[a++] = e.itemId();
      args[a++] = e.type().code();
      args[a++] = e.userId();
      args[a++] = e.atMillis();
    }
    jdbc.update(sql.toString(), args);
  }

  /** The database's clock, epoch milliseconds. */
  long databaseMillis() {
    return dialect.readNow(jdbc);
  }

  /** Makes this session's commits durable where the engine does not at commit (H2). */
  void makeCommitsDurable() {
    dialect.makeCommitsDurable(jdbc);
  }

  /** Up to {@code limit} rows with a seq above {@code after}, in seq order. */
  List<LoggedEvent> readAfter(long after, int limit) {
    return jdbc.query(
        "SELECT " + ROW_COLUMNS + " FROM hr_event_log WHERE seq > ? ORDER BY seq LIMIT ?",
        ROW,
        after,
        limit);
  }

  /** Ranges per statement: a fold's gaps are few, a replayed fold's ranges may be thousands. */
  private static final int RANGES_PER_READ = 500;

  /** The rows inside the given inclusive seq ranges (ascending), in seq order. */
  List<LoggedEvent> readRanges(List<long[]> ranges) {
    if (ranges.size() > RANGES_PER_READ) {
      List<LoggedEvent> rows = new ArrayList<>();
      for (int from = 0; from < ranges.size(); from += RANGES_PER_READ) {
        rows.addAll(
            readRanges(ranges.subList(from, Math.min(ranges.size(), from + RANGES_PER_READ))));
      }
      return rows;
    }
    if (ranges.isEmpty()) {
      return List.of();
    }
    StringBuilder sql = new StringBuilder("SELECT " + ROW_COLUMNS + " FROM hr_event_log WHERE ");
    Object[] args = new Object[ranges.size() * 2];
    for (int i = 0; i < ranges.size(); i++) {
      sql.append(i == 0 ? "" : " OR ").append("seq BETWEEN ? AND ?");
      args[2 * i] = ranges.get(i)[0];
      args[2 * i + 1] = ranges.get(i)[1];
    }
    return jdbc.query(sql.append(" ORDER BY seq").toString(), ROW, args);
  }

  /** Reads and locks the cursor row; inside the fold's transaction. */
  FoldCursor lockCursor() {
    return jdbc.queryForObject(
        "SELECT position, gaps, fold_no FROM hr_fold_cursor WHERE name = ? FOR UPDATE",
        (rs, n) -> cursorOf(rs),
        FoldNumbers.CURSOR);
  }

  /** Reads the cursor without locking it. */
  FoldCursor cursor() {
    return jdbc.queryForObject(
        "SELECT position, gaps, fold_no FROM hr_fold_cursor WHERE name = ?",
        (rs, n) -> cursorOf(rs),
        FoldNumbers.CURSOR);
  }

  private static FoldCursor cursorOf(ResultSet rs) throws SQLException {
    return new FoldCursor(rs.getLong(1), FoldCursor.parseGaps(rs.getString(2)), rs.getLong(3));
  }

  /**
   * Stores the cursor after a fold of this log, takes the fold's number and records the seq ranges
   * it applied and what each weighed; inside the fold's transaction, which locked the cursor.
   */
  void saveFold(FoldCursor cursor, List<long[]> folded, String weights, long nowMillis) {
    int updated =
        jdbc.update(
            "UPDATE hr_fold_cursor SET position = ?, gaps = ?, fold_no = ?, updated_at = ?"
                + " WHERE name = ? AND fold_no = ?",
            cursor.position(),
            cursor.gapsText(),
            cursor.foldNo(),
            nowMillis,
            FoldNumbers.CURSOR,
            cursor.foldNo() - 1);
    if (updated != 1) {
      throw new IllegalStateException("the fold cursor moved under a fold that held its lock");
    }
    numbers.record(
        cursor.foldNo(),
        LogSource.NAME,
        FoldCursor.rangesText(folded),
        weights,
        cursor.position(),
        nowMillis);
  }

  /**
   * Deletes up to {@code chunk} folded rows and the fold records older than {@code cutoffMillis}.
   *
   * @return the number of log rows deleted
   */
  int prune(long cutoffMillis, int chunk) {
    Long upTo = numbers.positionBefore(cutoffMillis);
    if (upTo == null) {
      return 0;
    }
    Long lowest =
        jdbc.queryForObject("SELECT MIN(seq) FROM hr_event_log WHERE seq <= ?", Long.class, upTo);
    if (lowest == null) {
      numbers.pruneBefore(cutoffMillis);
      return 0;
    }
    long to = Math.min(upTo, lowest + chunk - 1);
    int deleted = jdbc.update("DELETE FROM hr_event_log WHERE seq >= ? AND seq <= ?", lowest, to);
    if (to == upTo) {
      numbers.pruneBefore(cutoffMillis);
    }
    return deleted;
  }

  /** How many rows the log holds above the cursor's position (not counting gaps). */
  long backlog(long position) {
    Long n =
        jdbc.queryForObject(
            "SELECT COUNT(*) FROM hr_event_log WHERE seq > ?", Long.class, position);
    return n == null ? 0 : n;
  }

  /** The highest seq in the log, 0 when it is empty: the log's head. */
  long head() {
    Long n = jdbc.queryForObject("SELECT MAX(seq) FROM hr_event_log", Long.class);
    return n == null ? 0 : n;
  }
}
