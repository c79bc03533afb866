package io.hotrank.ingest.fold;

import io.hotrank.core.score.InteractionType;
import io.hotrank.core.score.Interactions;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.item.CounterStore;
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

/**
 * Applies folded events to the item counters and the per-user like and collect state, inside the
 * caller's transaction, in two steps: {@link #apply} locks the counter rows of the touched live
 * items (by biz, in id order, so that concurrent folds cannot deadlock), reads them and the users'
 * states, and applies every event in order in memory (clamped at zero; like and collect change a
 * counter only when they change the user's state); {@link #write} then writes the user states and
 * gives each changed item one UPDATE with its absolute values, under the fold's number. Between the
 * two a folder may take its fold's number, which it must do after the counter locks: an item's
 * versions then grow with its commits. Events of deleted or absent items are dropped.
 *
 * <p>Used by both sources of events: the event log's folder and the Kafka folder.
 */
public final class FoldApplier {

  private record StateKey(String biz, String action, long itemId, long userId) {}

  private final CounterStore counters;
  private final UserActionStore userActions;

  public FoldApplier(CounterStore counters, UserActionStore userActions) {
    this.counters = counters;
    this.userActions = userActions;
  }

  /** What {@link #apply} computed, to be written by {@link #write}. */
  public static final class Applied {
    private final List<LoggedEvent> effective = new ArrayList<>();
    private final List<LoggedEvent> notLive = new ArrayList<>();
    private final Map<Fold.ItemKey, long[]> touched = new LinkedHashMap<>();
    private final Map<Fold.ItemKey, Long> createdAt = new HashMap<>();
    private Map<StateKey, Boolean> initial = Map.of();
    private final Map<StateKey, Boolean> state = new HashMap<>();
    private final Map<StateKey, Long> setAt = new HashMap<>();

    private Applied() {}

    /** The events that changed a counter, in the order given. */
    public List<LoggedEvent> effective() {
      return effective;
    }

    /** The events dropped because their item is absent or deleted, in the order given. */
    public List<LoggedEvent> notLive() {
      return notLive;
    }

    /** The createdAt (epoch milliseconds) of every item whose counters changed. */
    public Map<Fold.ItemKey, Long> createdAt() {
      Map<Fold.ItemKey, Long> changed = HashMap.newHashMap(touched.size());
      touched.keySet().forEach(key -> changed.put(key, createdAt.get(key)));
      return changed;
    }
  }

  /** Locks the counters the events touch and applies the events to them in memory. */
  public Applied apply(List<LoggedEvent> rows) {
    Applied a = new Applied();
    Map<String, Map<Long, long[]>> live = lockLive(rows, a.createdAt);
    a.initial = userStates(rows, live);
    a.state.putAll(a.initial);
    for (LoggedEvent row : rows) {
      long[] c = live.get(row.biz()).get(row.itemId());
      if (c == null) {
        a.notLive.add(row);
        continue;
      }
      int slot = row.type().counter().ordinal();
      if (row.userId() != 0 && row.type().perUser()) {
        StateKey key =
            new StateKey(row.biz(), row.type().counter().wireName(), row.itemId(), row.userId());
        boolean on = a.state.get(key);
        boolean wantOn = row.type().step() > 0;
        if (on == wantOn) {
          continue; // a repeated like, or an unlike of nothing
        }
        a.state.put(key, wantOn);
        a.setAt.put(key, row.atMillis());
      }
      long before = c[slot];
      c[slot] = Math.max(0, c[slot] + row.type().step());
      if (c[slot] == before) {
        continue; // an anonymous undo of nothing
      }
      a.effective.add(row);
      a.touched.put(new Fold.ItemKey(row.biz(), row.itemId()), c);
    }
    return a;
  }

  /**
   * Writes what {@code applied} changed: the users' states, and the counters under {@code foldNo}.
   *
   * @return the absolute counters after the fold of every item it changed
   */
  public Map<Fold.ItemKey, Interactions> write(Applied applied, long foldNo, long nowMillis) {
    writeUserStates(applied.initial, applied.state, applied.setAt);
    Map<Fold.ItemKey, Interactions> after = new LinkedHashMap<>();
    Map<String, Map<Long, Interactions>> byBiz = new TreeMap<>();
    applied.touched.forEach(
        (key, c) -> {
          Interactions values = toInteractions(c);
          after.put(key, values);
          byBiz.computeIfAbsent(key.biz(), b -> new LinkedHashMap<>()).put(key.itemId(), values);
        });
    byBiz.forEach(
        (biz, values) ->
            counters.writeCounters(biz, values, Instant.ofEpochMilli(nowMillis), foldNo));
    return after;
  }

  /** Locks and reads the counters of the live items the rows touch, by biz, in a fixed order. */
  private Map<String, Map<Long, long[]>> lockLive(
      List<LoggedEvent> rows, Map<Fold.ItemKey, Long> createdAt) {
    Map<String, TreeSet<Long>> ids = new TreeMap<>();
    rows.forEach(r -> ids.computeIfAbsent(r.biz(), b -> new TreeSet<>()).add(r.itemId()));
    Map<String, Map<Long, long[]>> live = new HashMap<>();
    ids.forEach(
        (biz, set) -> {
          Map<Long, long[]> values = new HashMap<>();
          counters
              .lockCounters(biz, set)
              .forEach(
                  (id, row) -> {
                    values.put(id, toArray(row.counts()));
                    createdAt.put(new Fold.ItemKey(biz, id), row.createdAtMillis());
                  });
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
