package io.hotrank.board.publish;

import io.hotrank.board.BoardSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one owner of {@code hr_board_snapshot}: the newest published version of each board, the last
 * fallback of the read path and the seed of a cold start when Redis is empty or down. Every
 * statement binds its parameters.
 */
@Component
public class BoardSnapshotStore {

  /** Seconds a health probe's query may take: probes must answer quickly even when it cannot. */
  private static final int PROBE_TIMEOUT_SECONDS = 1;

  /** How many times a save that lost a deadlock is tried in all. */
  private static final int SAVE_ATTEMPTS = 5;

  private final JdbcTemplate jdbc;
  private final JdbcTemplate probe;
  private final TransactionTemplate transactions;
  private final TransactionTemplate savepoint;

  public BoardSnapshotStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
    this.jdbc = jdbc;
    this.transactions = new TransactionTemplate(transactionManager);
    this.savepoint = new TransactionTemplate(transactionManager);
    this.savepoint.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
    this.probe = new JdbcTemplate(jdbc.getDataSource());
    this.probe.setQueryTimeout(PROBE_TIMEOUT_SECONDS);
  }

  /**
   * Whether the table answers a query within a second (plus the wait for a connection, bounded by
   * the pool's connection timeout). Never throws.
   */
  public boolean answers() {
    try {
      probe.queryForList("SELECT version FROM hr_board_snapshot WHERE board = ?", Long.class, "");
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** What became of a save. */
  public enum Saved {
    /** It is the stored snapshot now. */
    STORED,
    /** The stored one is as new or newer. */
    NOT_NEWER,
    /** A publisher with a higher fencing token has stored the board: the caller's is stale. */
    STALE_FENCE
  }

  /**
   * Stores the snapshot unless a higher fencing token has stored the board or the stored one is as
   * new or newer: an UPDATE guarded by both ({@code WHERE fence <= ? AND version < ?}; equal tokens
   * pass, as a leader publishes many versions under one lease), then an INSERT for a board never
   * stored, and if that INSERT loses a race, the guarded UPDATE again. Runs in its own
   * auto-committed statements (a failed INSERT would abort a surrounding PostgreSQL transaction).
   */
  public Saved save(BoardSnapshot snapshot, long fence) {
    return save(snapshot, fence, BoardRedisStore.NO_BASE);
  }

  /**
   * Like {@link #save(BoardSnapshot, long)}, and also only while the stored version is at most
   * {@code base}: the compare-and-swap of a re-publish built on the snapshot of version {@code
   * base} ({@code ... AND version <= ?}), so that it never overwrites a version stored after it
   * read its base; refused for that reason, it returns {@link Saved#NOT_NEWER}. At most rather than
   * equal: the row may lag the base when the database missed the base's publish, and then nothing
   * newer than the base is stored either. {@link BoardRedisStore#NO_BASE}: no such condition.
   */
  public Saved save(BoardSnapshot snapshot, long fence, long base) {
    // InnoDB may pick the guarded UPDATE of a board's missing row (its gap lock) as the loser of
    // a deadlock with a concurrent first INSERT. The statement alone is rolled back (each runs in
    // its own auto-commit), so the save is asked again, as MySQL's manual advises for deadlocks.
    for (int attempt = 1; ; attempt++) {
      try {
        return saveOnce(snapshot, fence, base);
      } catch (PessimisticLockingFailureException deadlocked) {
        if (attempt == SAVE_ATTEMPTS) {
          throw deadlocked;
        }
      }
    }
  }

  private Saved saveOnce(BoardSnapshot snapshot, long fence, long base) {
    String payload = new String(snapshot.payload(), StandardCharsets.UTF_8);
    long computedAt = snapshot.computedAt().toEpochMilli();
    if (updateIfAllowed(snapshot, fence, base, payload, computedAt)) {
      return Saved.STORED;
    }
    List<Long> storedFence =
        jdbc.queryForList(
            "SELECT fence FROM hr_board_snapshot WHERE board = ?", Long.class, snapshot.key());
    if (!storedFence.isEmpty()) {
      return storedFence.getFirst() > fence ? Saved.STALE_FENCE : Saved.NOT_NEWER;
    }
    try {
      insert(snapshot, fence, payload, computedAt);
      return Saved.STORED;
    } catch (DuplicateKeyException | PessimisticLockingFailureException raced) {
      // Another publisher inserted the board's first row meanwhile (InnoDB may report a race of
      // three such inserts as a deadlock of one of them): keep whichever is allowed.
      if (updateIfAllowed(snapshot, fence, base, payload, computedAt)) {
        return Saved.STORED;
      }
      List<Long> winner =
          jdbc.queryForList(
              "SELECT fence FROM hr_board_snapshot WHERE board = ?", Long.class, snapshot.key());
      return !winner.isEmpty() && winner.getFirst() > fence ? Saved.STALE_FENCE : Saved.NOT_NEWER;
    }
  }

  private void insert(BoardSnapshot snapshot, long fence, String payload, long computedAt) {
    jdbc.update(
        "INSERT INTO hr_board_snapshot"
            + " (board, version, computed_at, payload, fence, family, segment, entries)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        snapshot.key(),
        snapshot.version(),
        computedAt,
        payload,
        fence,
        snapshot.segment() == null ? null : snapshot.board(),
        snapshot.segment(),
        snapshot.size());
  }

  private static final String GUARDED_UPDATE =
      "UPDATE hr_board_snapshot SET version = ?, computed_at = ?, payload = ?, fence = ?,"
          + " entries = ? WHERE board = ? AND fence <= ? AND version < ? AND version <= ?";

  private boolean updateIfAllowed(
      BoardSnapshot snapshot, long fence, long base, String payload, long computedAt) {
    return jdbc.update(GUARDED_UPDATE, guardedUpdate(snapshot, fence, base, payload, computedAt))
        == 1;
  }

  private static Object[] guardedUpdate(
      BoardSnapshot snapshot, long fence, long base, String payload, long computedAt) {
    // Without a base, "version <= version - 1" is the plain "version < ?" guard.
    long highest = base == BoardRedisStore.NO_BASE ? snapshot.version() - 1 : base;
    return new Object[] {
      snapshot.version(),
      computedAt,
      payload,
      fence,
      snapshot.size(),
      snapshot.key(),
      fence,
      snapshot.version(),
      highest
    };
  }

  /**
   * The guarded UPDATE of every snapshot, sent as one JDBC batch (one round trip, not one per
   * segment): whether each surely updated its row. A driver that reports no count for a batched
   * statement (none of the three engines' drivers as configured) makes that row take the per-board
   * path: its UPDATE changes nothing the second time, and the row is reported not newer, which the
   * publisher answers by publishing that board again on its own.
   */
  private boolean[] updateAllIfAllowed(List<BoardSnapshot> snapshots, long fence) {
    List<Object[]> rows = new ArrayList<>(snapshots.size());
    for (BoardSnapshot snapshot : snapshots) {
      rows.add(
          guardedUpdate(
              snapshot,
              fence,
              BoardRedisStore.NO_BASE,
              new String(snapshot.payload(), StandardCharsets.UTF_8),
              snapshot.computedAt().toEpochMilli()));
    }
    int[] counts = jdbc.batchUpdate(GUARDED_UPDATE, rows);
    boolean[] updated = new boolean[snapshots.size()];
    for (int i = 0; i < counts.length; i++) {
      updated[i] = counts[i] == 1;
    }
    return updated;
  }

  /**
   * Stores many snapshots (a family's segment boards) as {@link #save(BoardSnapshot, long)} stores
   * each, in one transaction: the same guarded UPDATEs (sent as one batch), and for a board whose
   * UPDATE changed no row the per-board path, with an INSERT under a savepoint, so that one lost
   * insert race rolls back that statement alone. One commit for the lot instead of one per board:
   * the commit's flush to disk is what a segment's save waits on. Deadlock victims run the whole
   * transaction again (at most {@value #SAVE_ATTEMPTS} times).
   *
   * @return what became of each, by key
   */
  public Map<String, Saved> saveAll(List<BoardSnapshot> snapshots, long fence) {
    for (int attempt = 1; ; attempt++) {
      try {
        Map<String, Saved> saved = new HashMap<>();
        transactions.executeWithoutResult(
            status -> {
              saved.clear();
              boolean[] updated = updateAllIfAllowed(snapshots, fence);
              for (int i = 0; i < snapshots.size(); i++) {
                BoardSnapshot snapshot = snapshots.get(i);
                saved.put(
                    snapshot.key(), updated[i] ? Saved.STORED : saveInTransaction(snapshot, fence));
              }
            });
        return saved;
      } catch (PessimisticLockingFailureException
          | org.springframework.transaction.TransactionSystemException deadlocked) {
        // InnoDB rolls a deadlock's victim back whole, savepoints included: the savepoint's own
        // rollback then fails with a TransactionSystemException. Either way, all again.
        if (attempt == SAVE_ATTEMPTS) {
          throw deadlocked;
        }
      }
    }
  }

  private Saved saveInTransaction(BoardSnapshot snapshot, long fence) {
    String payload = new String(snapshot.payload(), StandardCharsets.UTF_8);
    long computedAt = snapshot.computedAt().toEpochMilli();
    if (updateIfAllowed(snapshot, fence, BoardRedisStore.NO_BASE, payload, computedAt)) {
      return Saved.STORED;
    }
    List<Long> storedFence =
        jdbc.queryForList(
            "SELECT fence FROM hr_board_snapshot WHERE board = ?", Long.class, snapshot.key());
    if (!storedFence.isEmpty()) {
      return storedFence.getFirst() > fence ? Saved.STALE_FENCE : Saved.NOT_NEWER;
    }
    Boolean inserted =
        savepoint.execute(
            status -> {
              try {
                insert(snapshot, fence, payload, computedAt);
                return true;
              } catch (DuplicateKeyException raced) {
                status.setRollbackOnly(); // back to the savepoint: the transaction goes on
                return false;
              }
            });
    if (Boolean.TRUE.equals(inserted)) {
      return Saved.STORED;
    }
    if (updateIfAllowed(snapshot, fence, BoardRedisStore.NO_BASE, payload, computedAt)) {
      return Saved.STORED;
    }
    List<Long> winner =
        jdbc.queryForList(
            "SELECT fence FROM hr_board_snapshot WHERE board = ?", Long.class, snapshot.key());
    return !winner.isEmpty() && winner.getFirst() > fence ? Saved.STALE_FENCE : Saved.NOT_NEWER;
  }

  /** The stored versions of the given boards, 0 for those never stored, in one query per 500. */
  public Map<String, Long> versions(List<String> boards) {
    Map<String, Long> versions = new HashMap<>();
    for (int from = 0; from < boards.size(); from += 500) {
      List<String> chunk = boards.subList(from, Math.min(boards.size(), from + 500));
      jdbc.query(
          "SELECT board, version FROM hr_board_snapshot WHERE board IN ("
              + String.join(", ", java.util.Collections.nCopies(chunk.size(), "?"))
              + ")",
          rs -> {
            versions.put(rs.getString(1), rs.getLong(2));
          },
          chunk.toArray());
    }
    for (String board : boards) {
      versions.putIfAbsent(board, 0L);
    }
    return versions;
  }

  /** The fencing token a board's stored version was published under, if that version is stored. */
  public java.util.OptionalLong fenceOf(String board, long version) {
    List<Long> fence =
        jdbc.queryForList(
            "SELECT fence FROM hr_board_snapshot WHERE board = ? AND version = ?",
            Long.class,
            board,
            version);
    return fence.isEmpty()
        ? java.util.OptionalLong.empty()
        : java.util.OptionalLong.of(fence.getFirst());
  }

  /** The fencing token the board's stored snapshot was published under, 0 if none is stored. */
  public long fence(String board) {
    List<Long> fence =
        jdbc.queryForList("SELECT fence FROM hr_board_snapshot WHERE board = ?", Long.class, board);
    return fence.isEmpty() ? 0 : fence.getFirst();
  }

  /** The stored payload of a board. */
  public Optional<byte[]> find(String board) {
    List<String> payload =
        jdbc.queryForList(
            "SELECT payload FROM hr_board_snapshot WHERE board = ?", String.class, board);
    return payload.stream().findFirst().map(p -> p.getBytes(StandardCharsets.UTF_8));
  }

  /** One segment board of a family as the listing shows it. */
  public record SegmentRow(String segment, int entries, long version) {}

  /**
   * The segment boards of a family with at least one entry, most entries first, then by key, after
   * the keyset position {@code (afterEntries, afterKey)} (null: from the start), at most {@code
   * limit}: one range of the family index.
   */
  public List<SegmentRow> segments(
      String family, @Nullable Integer afterEntries, @Nullable String afterKey, int limit) {
    JdbcTemplate bounded = bounded(limit);
    String select = "SELECT segment, entries, version FROM hr_board_snapshot";
    String order = " ORDER BY entries DESC, board";
    RowMapper<SegmentRow> row =
        (rs, n) -> new SegmentRow(rs.getString(1), rs.getInt(2), rs.getLong(3));
    if (afterEntries == null || afterKey == null) {
      return bounded.query(select + " WHERE family = ? AND entries > ?" + order, row, family, 0);
    }
    return bounded.query(
        select
            + " WHERE family = ? AND entries > ? AND (entries < ? OR (entries = ? AND board > ?))"
            + order,
        row,
        family,
        0,
        afterEntries,
        afterEntries,
        afterKey);
  }

  /**
   * The segment boards of a family with at least one entry whose name starts with {@code prefix}
   * (null or empty: all), most entries first, then by key, at most {@code limit}: what an
   * operator's search of a family shows.
   */
  public List<SegmentRow> segments(String family, @Nullable String prefix, int limit) {
    if (prefix == null || prefix.isEmpty()) {
      return segments(family, null, null, limit);
    }
    JdbcTemplate bounded = bounded(limit);
    // LIKE with its wildcards escaped: the prefix is matched as written.
    String pattern = prefix.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%";
    return bounded.query(
        "SELECT segment, entries, version FROM hr_board_snapshot"
            + " WHERE family = ? AND entries > ? AND segment LIKE ? ESCAPE '!'"
            + " ORDER BY entries DESC, board",
        (rs, n) -> new SegmentRow(rs.getString(1), rs.getInt(2), rs.getLong(3)),
        family,
        0,
        pattern);
  }

  /** A template reading at most {@code limit} rows, under the configured query timeout. */
  private JdbcTemplate bounded(int limit) {
    JdbcTemplate bounded = new JdbcTemplate(jdbc.getDataSource());
    bounded.setMaxRows(limit);
    bounded.setQueryTimeout(jdbc.getQueryTimeout());
    return bounded;
  }

  /** The segments of a family whose stored board has entries: what a new computation empties. */
  public List<String> segmentsWithEntries(String family) {
    return jdbc.queryForList(
        "SELECT segment FROM hr_board_snapshot WHERE family = ? AND entries > ?",
        String.class,
        family,
        0);
  }

  /** The stored version of a board, 0 if none. */
  public long version(String board) {
    List<Long> version =
        jdbc.queryForList(
            "SELECT version FROM hr_board_snapshot WHERE board = ?", Long.class, board);
    return version.isEmpty() ? 0 : version.getFirst();
  }
}
