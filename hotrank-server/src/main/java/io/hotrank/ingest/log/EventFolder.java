package io.hotrank.ingest.log;

import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.IngestProperties;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.ingest.fold.FoldApplier;
import io.hotrank.ingest.fold.FoldWeights;
import io.hotrank.item.Counters;
import io.hotrank.job.FaultPoints;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Folds the event log into the item counters and the per-user like and collect state, exactly once:
 * one fold is one transaction that locks the cursor row, reads the next rows (and those found in
 * the cursor's gaps), applies them and moves the cursor. A second folder, or a replay after a
 * crash, waits on the cursor row and then starts where the committed fold left off, so no row is
 * applied twice and none is skipped.
 *
 * <p>Applying is {@link FoldApplier}'s: the touched counters are locked, the events applied in log
 * order in memory, and each changed item written once. Events of deleted or absent items are
 * dropped.
 */
final class EventFolder {

  private static final Logger log = LoggerFactory.getLogger(EventFolder.class);

  /** The most gaps the cursor keeps: past it, a fold reads fewer rows (see FoldCursor). */
  static final int MAX_GAPS = 1000;

  private final EventLog eventLog;
  private final FoldApplier applier;
  private final Clock clock;
  private final TransactionTemplate tx;
  private final int foldEvents;
  private final long gapTimeoutMillis;
  private final FaultPoints faults;

  EventFolder(
      EventLog eventLog,
      FoldApplier applier,
      Clock clock,
      PlatformTransactionManager transactions,
      IngestProperties properties,
      FaultPoints faults) {
    this.eventLog = eventLog;
    this.faults = faults;
    this.applier = applier;
    this.clock = clock;
    this.tx = new TransactionTemplate(transactions);
    this.foldEvents = properties.foldEvents();
    this.gapTimeoutMillis = properties.gapTimeout().toMillis();
  }

  /** Folds the next rows; null when there was nothing to fold and no gap to give up. */
  @Nullable Fold foldOnce() {
    Fold fold = tx.execute(status -> foldLocked());
    if (fold != null) {
      // Durable before Redis hears of it: on H2, a fold lost by a crash after Redis applied it
      // would be refolded under the same number, which Redis would take for done.
      eventLog.makeCommitsDurable();
    }
    return fold;
  }

  private @Nullable Fold foldLocked() {
    FoldCursor cursor = eventLog.lockCursor();
    List<long[]> gapRanges = new ArrayList<>();
    cursor.gaps().forEach(g -> gapRanges.add(new long[] {g.from(), g.to()}));
    // The rows past the position first, then those in the gaps: a batch is committed whole, so
    // when the first read sees a row of it, the second sees its rows in the gaps too. Read the
    // other way round (each statement sees what is committed when it starts), a batch committed
    // in between would be applied in two folds, its later rows first.
    List<LoggedEvent> read = eventLog.readAfter(cursor.position(), foldEvents);
    List<LoggedEvent> next =
        read.subList(
            0,
            cursor.rowsWithinGaps(read.stream().mapToLong(LoggedEvent::seq).toArray(), MAX_GAPS));
    List<LoggedEvent> rows = new ArrayList<>(eventLog.readRanges(gapRanges));
    rows.addAll(next);
    long readTo = next.isEmpty() ? cursor.position() : next.getLast().seq();
    // Gaps age by the database's clock: instances' clocks may disagree, and a gap given up early
    // loses its row.
    long now = eventLog.databaseMillis();
    long[] seqs = rows.stream().mapToLong(LoggedEvent::seq).toArray();
    FoldCursor.Advance advance = cursor.advance(seqs, readTo, now, gapTimeoutMillis);
    if (rows.isEmpty() && advance.givenUp().isEmpty()) {
      return null;
    }
    for (FoldCursor.Gap g : advance.givenUp()) {
      log.warn(
          "Gave up waiting for event log rows {}..{} (first missed {} ms ago): their appends"
              + " rolled back or never committed",
          g.from(),
          g.to(),
          now - g.seenMillis());
    }
    FoldApplier.Applied applied = applier.apply(rows);
    Map<Fold.ItemKey, Counters> changed = applier.write(applied, advance.cursor().foldNo(), now);
    // In seq order, as the rows were read and as the log reads the fold back.
    List<FoldedEvent> effective = applied.effective();
    long[] effectiveSeqs = effective.stream().mapToLong(e -> e.event().seq()).toArray();
    faults.point(FoldJobs.FOLD, "before-commit", "fold=" + advance.cursor().foldNo());
    eventLog.saveFold(
        advance.cursor(), FoldCursor.ranges(effectiveSeqs), FoldWeights.encode(effective), now);
    return new Fold(
        advance.cursor().foldNo(),
        effective,
        changed,
        applied.createdAt(),
        read.size() >= foldEvents);
  }
}
