package io.hotrank.ingest.fold;

import io.hotrank.storage.SqlDialect;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The one sequence every fold shares, whatever its source, and the record of each fold: the owner
 * of {@code hr_fold} and of the {@code fold_no} of {@code hr_fold_cursor}'s row. The Redis side
 * ({@link io.hotrank.ingest.FoldListener}s) applies folds by number, and reads a missed one back
 * through {@link RecordedFolds} from the record its source left here. Every statement binds its
 * parameters; callers own the transactions.
 */
public final class FoldNumbers {

  /** The row of {@code hr_fold_cursor} that holds the last fold's number. */
  public static final String CURSOR = "events";

  /**
   * What a fold applied, as its source recorded it.
   *
   * @param source the name of the source that folded it ({@link
   *     io.hotrank.ingest.EventSource#name})
   * @param record what that source reads the fold's events back from
   * @param weights what each of those events weighed ({@link FoldWeights}); null for a fold
   *     committed before trust existed
   */
  public record Recorded(String source, String record, @Nullable String weights) {}

  /**
   * A fold's number, taken, and the event log's position it leaves as it was.
   *
   * @param foldNo the number
   * @param position the event log's position, which the fold's record keeps
   */
  public record Taken(long foldNo, long position) {}

  private final JdbcTemplate jdbc;
  private final SqlDialect dialect;

  public FoldNumbers(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
  }

  /**
   * Takes the next fold number and stores the fold's {@code record} tagged with its {@code source}
   * and its events' {@code weights}, as {@link #take} and {@link #record} do.
   */
  public long number(String source, String record, String weights, long nowMillis) {
    Taken taken = take(nowMillis);
    record(taken.foldNo(), source, record, weights, taken.position(), nowMillis);
    return taken.foldNo();
  }

  /**
   * Takes the next fold number; the caller then stores the fold's record under it ({@link
   * #record}). Call inside the fold's transaction: the number's row stays locked until the commit,
   * so numbers follow commit order. A Kafka fold calls it after locking its counters, so that an
   * item's versions grow with its folds; the log's folder locks the row first (its position is on
   * it), and its folds are one at a time.
   */
  public Taken take(long nowMillis) {
    long[] locked =
        jdbc.queryForObject(
            "SELECT fold_no, position FROM hr_fold_cursor WHERE name = ? FOR UPDATE",
            (rs, n) -> new long[] {rs.getLong(1), rs.getLong(2)},
            CURSOR);
    long foldNo = locked[0] + 1;
    int updated =
        jdbc.update(
            "UPDATE hr_fold_cursor SET fold_no = ?, updated_at = ? WHERE name = ? AND fold_no = ?",
            foldNo,
            nowMillis,
            CURSOR,
            foldNo - 1);
    if (updated != 1) {
      throw new IllegalStateException("the fold number moved under a fold that held its lock");
    }
    return new Taken(foldNo, locked[1]);
  }

  /**
   * Locks the number's row until the caller's transaction ends, as a fold holds it: what orders a
   * flag's retraction with the folds ({@link ActorRetraction}).
   */
  public void lockNumber() {
    jdbc.queryForObject(
        "SELECT fold_no FROM hr_fold_cursor WHERE name = ? FOR UPDATE", Long.class, CURSOR);
  }

  /**
   * Stores the record of fold {@code foldNo}, whose number its folder took in this transaction: by
   * {@link #number}, or the event log's folder, which holds the number's row for its position and
   * moves the number with it in one UPDATE.
   *
   * @param weights what each event weighed, in the order the source reads them back ({@link
   *     FoldWeights#encode})
   * @param position the event log's position after the fold, which the log's pruning goes by
   */
  public void record(
      long foldNo, String source, String record, String weights, long position, long nowMillis) {
    jdbc.update(
        "INSERT INTO hr_fold (fold_no, source, seqs, weights, position, folded_at)"
            + " VALUES (?, ?, ?, ?, ?, ?)",
        foldNo,
        source,
        record,
        weights,
        position,
        nowMillis);
  }

  /** The number of the last committed fold (0 before the first). */
  public long lastFoldNo() {
    return jdbc.queryForObject(
        "SELECT fold_no FROM hr_fold_cursor WHERE name = ?", Long.class, CURSOR);
  }

  /** The first fold committed at or after {@code millis}, or the next fold's number. */
  public long firstFoldSince(long millis) {
    Long first =
        jdbc.queryForObject(
            "SELECT MIN(fold_no) FROM hr_fold WHERE folded_at >= ?", Long.class, millis);
    return first != null ? first : lastFoldNo() + 1;
  }

  /** What fold {@code foldNo} applied, as stored; null when its record was pruned. */
  public @Nullable Recorded recordOf(long foldNo) {
    List<Recorded> found =
        jdbc.query(
            "SELECT source, seqs, weights FROM hr_fold WHERE fold_no = ?",
            (rs, n) -> new Recorded(rs.getString(1), rs.getString(2), rs.getString(3)),
            foldNo);
    return found.isEmpty() ? null : found.getFirst();
  }

  /**
   * The highest event log position of the folds committed before {@code cutoffMillis}: the log's
   * rows up to it may be pruned with them. Null when there are none.
   */
  public @Nullable Long positionBefore(long cutoffMillis) {
    return jdbc.queryForObject(
        "SELECT MAX(position) FROM hr_fold WHERE folded_at < ?", Long.class, cutoffMillis);
  }

  /** Deletes the records of the folds committed before {@code cutoffMillis}. */
  public void pruneBefore(long cutoffMillis) {
    jdbc.update("DELETE FROM hr_fold WHERE folded_at < ?", cutoffMillis);
  }

  /** The database's clock, epoch milliseconds: what folds are stamped with. */
  public long databaseMillis() {
    return dialect.readNow(jdbc);
  }

  /** Makes this session's commits durable where the engine does not at commit (H2). */
  public void makeCommitsDurable() {
    dialect.makeCommitsDurable(jdbc);
  }
}
