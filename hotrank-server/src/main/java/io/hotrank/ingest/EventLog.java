package io.hotrank.ingest;

import io.hotrank.event.Event;
import io.hotrank.event.EventType;
import io.hotrank.storage.SqlDialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The one owner of {@code hr_event_log}, {@code hr_fold_cursor} and {@code hr_fold}. Every
 * statement binds its parameters; callers own the transactions.
 */
class EventLog {

  private static final String CURSOR = "events";
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

  EventLog(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
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
        CURSOR);
  }

  /** Reads the cursor without locking it. */
  FoldCursor cursor() {
    return jdbc.queryForObject(
        "SELECT position, gaps, fold_no FROM hr_fold_cursor WHERE name = ?",
        (rs, n) -> cursorOf(rs),
        CURSOR);
  }

  private static FoldCursor cursorOf(ResultSet rs) throws SQLException {
    return new FoldCursor(rs.getLong(1), FoldCursor.parseGaps(rs.getString(2)), rs.getLong(3));
  }

  /** Stores the cursor after a fold of this log and the fold's record; inside its transaction. */
  void saveFold(FoldCursor cursor, List<long[]> folded, long nowMillis) {
    saveFold(cursor, LogSource.NAME, FoldCursor.rangesText(folded), nowMillis);
  }

  /**
   * Takes the next fold number for a fold of another source (its records are not in this log) and
   * stores {@code record} tagged with {@code source}, what a replay reads it back from; inside the
   * fold's transaction. Locks the cursor row until the transaction ends, so numbers are taken in
   * commit order.
   *
   * @return the fold's number
   */
  long numberFold(String source, String record, long nowMillis) {
    FoldCursor cursor = lockCursor();
    FoldCursor next = new FoldCursor(cursor.position(), cursor.gaps(), cursor.foldNo() + 1);
    saveFold(next, source, record, nowMillis);
    return next.foldNo();
  }

  private void saveFold(FoldCursor cursor, String source, String record, long nowMillis) {
    int updated =
        jdbc.update(
            "UPDATE hr_fold_cursor SET position = ?, gaps = ?, fold_no = ?, updated_at = ?"
                + " WHERE name = ? AND fold_no = ?",
            cursor.position(),
            cursor.gapsText(),
            cursor.foldNo(),
            nowMillis,
            CURSOR,
            cursor.foldNo() - 1);
    if (updated != 1) {
      throw new IllegalStateException("the fold cursor moved under a fold that held its lock");
    }
    jdbc.update(
        "INSERT INTO hr_fold (fold_no, source, seqs, position, folded_at) VALUES (?, ?, ?, ?, ?)",
        cursor.foldNo(),
        source,
        record,
        cursor.position(),
        nowMillis);
  }

  /** The first fold committed at or after {@code millis}, or the next fold's number. */
  long firstFoldSince(long millis) {
    Long first =
        jdbc.queryForObject(
            "SELECT MIN(fold_no) FROM hr_fold WHERE folded_at >= ?", Long.class, millis);
    return first != null ? first : cursor().foldNo() + 1;
  }

  /**
   * What a fold applied, as stored.
   *
   * @param source the name of the source that folded it
   * @param record for this log, its seq ranges ({@link FoldCursor#rangesText}); for another source,
   *     the record it gave {@link #numberFold}
   */
  record Recorded(String source, String record) {}

  /** What fold {@code foldNo} applied, as stored; null when the fold's record was pruned. */
  @Nullable Recorded recordOf(long foldNo) {
    List<Recorded> found =
        jdbc.query(
            "SELECT source, seqs FROM hr_fold WHERE fold_no = ?",
            (rs, n) -> new Recorded(rs.getString(1), rs.getString(2)),
            foldNo);
    return found.isEmpty() ? null : found.getFirst();
  }

  /**
   * Deletes up to {@code chunk} folded rows and the fold records older than {@code cutoffMillis}.
   *
   * @return the number of log rows deleted
   */
  int prune(long cutoffMillis, int chunk) {
    Long upTo =
        jdbc.queryForObject(
            "SELECT MAX(position) FROM hr_fold WHERE folded_at < ?", Long.class, cutoffMillis);
    if (upTo == null) {
      return 0;
    }
    Long lowest =
        jdbc.queryForObject("SELECT MIN(seq) FROM hr_event_log WHERE seq <= ?", Long.class, upTo);
    if (lowest == null) {
      jdbc.update("DELETE FROM hr_fold WHERE folded_at < ?", cutoffMillis);
      return 0;
    }
    long to = Math.min(upTo, lowest + chunk - 1);
    int deleted = jdbc.update("DELETE FROM hr_event_log WHERE seq >= ? AND seq <= ?", lowest, to);
    if (to == upTo) {
      jdbc.update("DELETE FROM hr_fold WHERE folded_at < ?", cutoffMillis);
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
