package io.hotrank.ingest;

import io.hotrank.core.score.InteractionType;
import io.hotrank.core.score.Interactions;
import io.hotrank.item.CounterStore;
import io.hotrank.job.FaultPoints;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * <p>Applying: the counter rows of the touched live items are locked and read once, every event is
 * applied to them in log order in memory (clamped at zero; like and collect change a counter only
 * when they change the user's state), and each changed item gets one UPDATE with its absolute
 * values, all in one JDBC batch. Events of deleted or absent items are dropped.
 */
final class EventFolder {

  private static final Logger log = LoggerFactory.getLogger(EventFolder.class);

  /** The most gaps the cursor keeps: past it, a fold reads fewer rows (see FoldCursor). */
  static final int MAX_GAPS = 1000;

  private record StateKey(String biz, String action, long itemId, long userId) {}

  private final EventLog eventLog;
  private final CounterStore counters;
  private final UserActionStore userActions;
  private final Clock clock;
  private final TransactionTemplate tx;
  private final int foldEvents;
  private final long gapTimeoutMillis;
  private final FaultPoints faults;

  EventFolder(
      EventLog eventLog,
      CounterStore counters,
      UserActionStore userActions,
      Clock clock,
      PlatformTransactionManager transactions,
      IngestProperties properties,
      FaultPoints faults) {
    this.eventLog = eventLog;
    this.faults = faults;
    this.counters = counters;
    this.userActions = userActions;
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
    List<LoggedEvent> effective = new ArrayList<>(rows.size());
    Map<Fold.ItemKey, Interactions> changed =
        apply(rows, now, advance.cursor().foldNo(), effective);
    long[] effectiveSeqs = effective.stream().mapToLong(LoggedEvent::seq).toArray();
    faults.point(FoldJobs.FOLD, "before-commit", "fold=" + advance.cursor().foldNo());
    eventLog.saveFold(advance.cursor(), FoldCursor.ranges(effectiveSeqs), now);
    return new Fold(advance.cursor().foldNo(), effective, changed, read.size() >= foldEvents);
  }

  /**
   * Applies the rows; adds to {@code effective} those that changed a counter, and returns the
   * absolute counters after them of every item they changed.
   */
  private Map<Fold.ItemKey, Interactions> apply(
      List<LoggedEvent> rows, long now, long foldNo, List<LoggedEvent> effective) {
    Map<String, Map<Long, long[]>> live = lockLive(rows);
    Map<StateKey, Boolean> initial = userStates(rows, live);
    Map<StateKey, Boolean> state = new HashMap<>(initial);
    Map<StateKey, Long> setAt = new HashMap<>();
    Map<Fold.ItemKey, long[]> touched = new LinkedHashMap<>();
    for (LoggedEvent row : rows) {
      long[] c = live.get(row.biz()).get(row.itemId());
      if (c == null) {
        continue; // deleted or absent: dropped
      }
      int slot = row.type().counter().ordinal();
      if (row.userId() != 0 && row.type().perUser()) {
        StateKey key =
            new StateKey(row.biz(), row.type().counter().wireName(), row.itemId(), row.userId());
        boolean on = state.get(key);
        boolean wantOn = row.type().step() > 0;
        if (on == wantOn) {
          continue; // a repeated like, or an unlike of nothing
        }
        state.put(key, wantOn);
        setAt.put(key, row.atMillis());
      }
      long before = c[slot];
      c[slot] = Math.max(0, c[slot] + row.type().step());
      if (c[slot] == before) {
        continue; // an anonymous undo of nothing
      }
      effective.add(row);
      touched.put(new Fold.ItemKey(row.biz(), row.itemId()), c);
    }
    writeUserStates(initial, state, setAt);
    Map<Fold.ItemKey, Interactions> after = new LinkedHashMap<>();
    Map<String, Map<Long, Interactions>> byBiz = new TreeMap<>();
    touched.forEach(
        (key, c) -> {
          Interactions values = toInteractions(c);
          after.put(key, values);
          byBiz.computeIfAbsent(key.biz(), b -> new LinkedHashMap<>()).put(key.itemId(), values);
        });
    byBiz.forEach(
        (biz, values) -> counters.writeCounters(biz, values, Instant.ofEpochMilli(now), foldNo));
    return after;
  }

  /** Locks and reads the counters of the live items the rows touch, by biz, in a fixed order. */
  private Map<String, Map<Long, long[]>> lockLive(List<LoggedEvent> rows) {
    Map<String, TreeSet<Long>> ids = new TreeMap<>();
    rows.forEach(r -> ids.computeIfAbsent(r.biz(), b -> new TreeSet<>()).add(r.itemId()));
    Map<String, Map<Long, long[]>> live = new HashMap<>();
    ids.forEach(
        (biz, set) -> {
          Map<Long, long[]> values = new HashMap<>();
          counters.lockCounters(biz, set).forEach((id, c) -> values.put(id, toArray(c)));
          live.put(biz, values);
        });
    return live;
  }

  /** The recorded state of every (biz, action, item, user) the rows change on live items. */
  private Map<StateKey, Boolean> userStates(
      List<LoggedEvent> rows, Map<String, Map<Long, long[]>> live) {
    Map<String, Map<String, Set<UserActionStore.Pair>>> wanted = new TreeMap<>();
    for (LoggedEvent row : rows) {
      if (row.userId() != 0
          && row.type().perUser()
          && live.get(row.biz()).containsKey(row.itemId())) {
        wanted
            .computeIfAbsent(row.biz(), b -> new TreeMap<>())
            .computeIfAbsent(row.type().counter().wireName(), a -> new LinkedHashSet<>())
            .add(new UserActionStore.Pair(row.itemId(), row.userId()));
      }
    }
    Map<StateKey, Boolean> states = new HashMap<>();
    wanted.forEach(
        (biz, byAction) ->
            byAction.forEach(
                (action, pairs) -> {
                  List<UserActionStore.Pair> list = new ArrayList<>(pairs);
                  Set<UserActionStore.Pair> on = userActions.existing(biz, action, list);
                  for (UserActionStore.Pair p : list) {
                    states.put(new StateKey(biz, action, p.itemId(), p.userId()), on.contains(p));
                  }
                }));
    return states;
  }

  private void writeUserStates(
      Map<StateKey, Boolean> initial, Map<StateKey, Boolean> state, Map<StateKey, Long> setAt) {
    record Group(String biz, String action) {}
    Map<Group, List<UserActionStore.Pair>> inserts = new LinkedHashMap<>();
    Map<Group, List<Long>> insertAt = new HashMap<>();
    Map<Group, List<UserActionStore.Pair>> deletes = new LinkedHashMap<>();
    state.forEach(
        (key, on) -> {
          if (on.equals(initial.get(key))) {
            return;
          }
          Group group = new Group(key.biz(), key.action());
          UserActionStore.Pair pair = new UserActionStore.Pair(key.itemId(), key.userId());
          if (on) {
            inserts.computeIfAbsent(group, g -> new ArrayList<>()).add(pair);
            insertAt.computeIfAbsent(group, g -> new ArrayList<>()).add(setAt.get(key));
          } else {
            deletes.computeIfAbsent(group, g -> new ArrayList<>()).add(pair);
          }
        });
    deletes.forEach((g, pairs) -> userActions.delete(g.biz(), g.action(), pairs));
    inserts.forEach((g, pairs) -> userActions.insert(g.biz(), g.action(), pairs, insertAt.get(g)));
  }

  private static long[] toArray(Interactions c) {
    long[] a = new long[InteractionType.values().length];
    for (InteractionType t : InteractionType.values()) {
      a[t.ordinal()] = t.countIn(c);
    }
    return a;
  }

  private static Interactions toInteractions(long[] a) {
    return new Interactions(
        a[InteractionType.LIKE.ordinal()], a[InteractionType.VIEW.ordinal()],
        a[InteractionType.COMMENT.ordinal()], a[InteractionType.SHARE.ordinal()],
        a[InteractionType.COLLECT.ordinal()], a[InteractionType.DISLIKE.ordinal()]);
  }
}
