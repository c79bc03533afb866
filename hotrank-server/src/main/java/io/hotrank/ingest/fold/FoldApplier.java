package io.hotrank.ingest.fold;

import io.hotrank.core.score.InteractionType;
import io.hotrank.core.score.Interactions;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.item.CounterStore;
import io.hotrank.item.Counters;
import io.hotrank.trust.ActorWeights;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Applies folded events to the item counters, raw and trusted, and the per-user action state,
 * inside the caller's transaction, in two steps: {@link #apply} locks the counter rows of the
 * touched live items (by biz, in id order, so that concurrent folds cannot deadlock), reads them,
 * the users' states and the actors' weights, and applies every event in order in memory; {@link
 * #write} then writes the user states and gives each changed item one UPDATE with its absolute
 * values, under the fold's number. Between the two a folder may take its fold's number, which it
 * must do after the counter locks: an item's versions then grow with its commits. Events of deleted
 * or absent items are dropped.
 *
 * <p>The raw counters count every event once (clamped at zero; like and collect change a counter
 * only when they change the user's state). The trusted counters add each event's weight by its
 * actor at fold time ({@link ActorWeights}), in thousandths: a like or collect adds its weight
 * while it stands and its undo takes back exactly what it added (stored with the user's state); a
 * view, comment, share or dislike adds its weight for the first {@code max-per-actor} of its actor
 * on the item, and nothing after; an event without a user adds the anonymous weight (and an
 * anonymous undo takes it back, clamped at zero).
 *
 * <p>Used by both sources of events: the event log's folder and the Kafka folder.
 */
public final class FoldApplier {

  private record StateKey(String biz, String action, long itemId, long userId) {}

  /**
   * One change of a trusted counter, decided by {@link #apply} and weighed by {@link #write}: add
   * the weight of {@code userId}'s event at {@code atMillis} (kept in the state of {@code key} when
   * there is one), take back what {@code key}'s standing action added ({@code undo}), or add or
   * take back an anonymous event's weight ({@code userId} 0) or add an uncapped one's (no key);
   * {@code event} is the index of its event in the fold's list.
   */
  private record TrustedStep(
      long[] counters,
      int slot,
      long userId,
      long atMillis,
      @Nullable StateKey key,
      int step,
      int event) {}

  /** Slots of a counter array: the six raw counters, then the six trusted ones. */
  static final int TRUSTED = InteractionType.values().length;

  private final CounterStore counters;
  private final UserActionStore userActions;
  private final ActorWeights weights;

  public FoldApplier(CounterStore counters, UserActionStore userActions, ActorWeights weights) {
    this.counters = counters;
    this.userActions = userActions;
    this.weights = weights;
  }

  /** What {@link #apply} computed, to be written by {@link #write}. */
  public static final class Applied {
    // The events that moved a counter, whether each moved its raw one, and (once weighed) what
    // each added to its trusted one.
    private final List<LoggedEvent> listed = new ArrayList<>();
    private final List<Boolean> raw = new ArrayList<>();
    private long @Nullable [] trusted;
    private final List<LoggedEvent> notLive = new ArrayList<>();
    private final Map<Fold.ItemKey, long[]> touched = new LinkedHashMap<>();
    private final Map<Fold.ItemKey, Long> createdAt = new HashMap<>();
    // Null values: no row. Every key the events change is in both maps before they apply.
    private Map<StateKey, UserActionStore.@Nullable Held> initial = Map.of();
    private final Map<StateKey, UserActionStore.@Nullable Held> state = new HashMap<>();
    private final Map<StateKey, Long> setAt = new HashMap<>();
    // The trusted counters' changes, in event order, applied by write() once the weights are read.
    private final List<TrustedStep> steps = new ArrayList<>();
    private final Set<Long> users = new HashSet<>();

    private Applied() {}

    /** Whether some event changed a counter (known before the events are weighed). */
    public boolean changedAny() {
      return !listed.isEmpty();
    }

    /**
     * The events that changed a counter, raw or trusted, in the order given, with what each did;
     * known once {@link #write} weighed them.
     */
    public List<FoldedEvent> effective() {
      if (trusted == null) {
        throw new IllegalStateException("the fold's events are weighed by write()");
      }
      List<FoldedEvent> effective = new ArrayList<>(listed.size());
      for (int i = 0; i < listed.size(); i++) {
        // A trusted step that changed nothing (an unlike of a like that weighed nothing, whose
        // raw counter anonymous unlikes took to 0) is no event of the fold.
        if (raw.get(i) || trusted[i] != 0) {
          effective.add(new FoldedEvent(listed.get(i), raw.get(i), trusted[i]));
        }
      }
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
      int steps = a.steps.size();
      boolean rawMoved = counted(a, row, c);
      if (rawMoved || a.steps.size() > steps) {
        a.listed.add(row);
        a.raw.add(rawMoved);
        a.touched.put(new Fold.ItemKey(row.biz(), row.itemId()), c);
      }
    }
    return a;
  }

  /**
   * Applies one event of a live item to its raw counters {@code c} and to the users' states, and
   * records what it does to the trusted ones; whether the raw counter moved. An event that records
   * a trusted step is listed as the fold's event {@code a.listed.size()}, raw or not.
   */
  private boolean counted(Applied a, LoggedEvent row, long[] c) {
    int event = a.listed.size();
    InteractionType counter = row.type().counter();
    int slot = counter.ordinal();
    int step = row.type().step();
    if (row.userId() == 0) {
      long before = c[slot];
      c[slot] = Math.max(0, c[slot] + step);
      if (c[slot] == before) {
        return false; // an anonymous undo of nothing
      }
      a.steps.add(new TrustedStep(c, slot, 0, row.atMillis(), null, step, event));
      return true;
    }
    if (!row.type().perUser() && weights.maxPerActor(counter) == 0) {
      c[slot]++; // uncapped: no state per actor
      a.steps.add(new TrustedStep(c, slot, row.userId(), row.atMillis(), null, +1, event));
      a.users.add(row.userId());
      return true;
    }
    StateKey key = new StateKey(row.biz(), counter.wireName(), row.itemId(), row.userId());
    UserActionStore.Held held = a.state.get(key);
    if (row.type().perUser()) {
      boolean wantOn = step > 0;
      if ((held != null) == wantOn) {
        return false; // a repeated like, or an unlike of nothing
      }
      a.setAt.put(key, row.atMillis());
      // The weight is filled in by write(); the row's presence is what decides here.
      a.state.put(key, wantOn ? new UserActionStore.Held(0, 1) : null);
      long before = c[slot];
      c[slot] = wantOn ? c[slot] + 1 : Math.max(0, c[slot] - 1);
      a.steps.add(new TrustedStep(c, slot, row.userId(), row.atMillis(), key, step, event));
      a.users.add(row.userId());
      // An unlike whose raw counter anonymous unlikes took to 0 changes the state and the trusted
      // counter only: an event of the trusted counters, not of the raw ones.
      return c[slot] != before;
    }
    c[slot]++;
    int counted = held == null ? 0 : held.counted();
    if (held == null) {
      a.setAt.put(key, row.atMillis());
    }
    // Counted past the cap too (what suspicion's concentration reads), saturating; the trusted
    // counter takes only the first ones.
    a.state.put(
        key,
        new UserActionStore.Held(
            held == null ? 0 : held.weight(),
            counted == Integer.MAX_VALUE ? counted : counted + 1));
    if (counted < weights.maxPerActor(counter)) {
      a.steps.add(new TrustedStep(c, slot, row.userId(), row.atMillis(), key, +1, event));
      a.users.add(row.userId());
    }
    return true;
  }

  /**
   * Weighs the recorded steps by the actors as they stand now, into the trusted counters and the
   * weights of the users' states. Called by {@link #write}: in a Kafka fold after it took its
   * number, whose lock a flag's retraction holds too, so that a fold sees every flag committed
   * before it and a flag sees every fold committed before it ({@link ActorRetraction}).
   */
  private void weigh(Applied a) {
    ActorWeights.Weigher weigher = weights.of(a.users);
    long[] added = new long[a.listed.size()];
    // Weights of the states as stored, then as each step leaves them.
    Map<StateKey, Long> weightOf = new HashMap<>();
    a.initial.forEach((key, held) -> weightOf.put(key, held == null ? 0 : held.weight()));
    for (TrustedStep s : a.steps) {
      int at = TRUSTED + s.slot();
      long[] c = s.counters();
      long before = c[at];
      if (s.key() == null) {
        c[at] = Math.max(0, c[at] + s.step() * weigher.weight(s.userId(), s.atMillis()));
      } else if (s.step() < 0) {
        c[at] = Math.max(0, c[at] - weightOf.getOrDefault(s.key(), 0L));
        weightOf.put(s.key(), 0L);
      } else {
        long w = weigher.weight(s.userId(), s.atMillis());
        c[at] += w;
        weightOf.merge(s.key(), w, Long::sum);
      }
      added[s.event()] += c[at] - before;
    }
    a.trusted = added;
    a.state.replaceAll(
        (key, held) ->
            held == null ? null : new UserActionStore.Held(weightOf.get(key), held.counted()));
  }

  /**
   * Writes what {@code applied} changed: the users' states, and the counters under {@code foldNo}.
   *
   * @return the absolute counters after the fold of every item it changed
   */
  public Map<Fold.ItemKey, Counters> write(Applied applied, long foldNo, long nowMillis) {
    weigh(applied);
    writeUserStates(applied.initial, applied.state, applied.setAt);
    Map<Fold.ItemKey, Counters> after = new LinkedHashMap<>();
    Map<String, Map<Long, Counters>> byBiz = new TreeMap<>();
    applied.touched.forEach(
        (key, c) -> {
          Counters values = new Counters(interactions(c, 0), interactions(c, TRUSTED));
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
                    values.put(id, toArray(row.counts(), row.trusted()));
                    createdAt.put(new Fold.ItemKey(biz, id), row.createdAtMillis());
                  });
          live.put(biz, values);
        });
    return live;
  }

  /**
   * The recorded state of every (biz, action, item, user) the rows of users change on live items:
   * its row's values, or null when it has none.
   */
  private Map<StateKey, UserActionStore.@Nullable Held> userStates(
      List<LoggedEvent> rows, Map<String, Map<Long, long[]>> live) {
    Map<String, Map<String, Set<UserActionStore.Pair>>> wanted = new TreeMap<>();
    for (LoggedEvent row : rows) {
      if (row.userId() != 0
          && (row.type().perUser() || weights.maxPerActor(row.type().counter()) > 0)
          && live.get(row.biz()).containsKey(row.itemId())) {
        wanted
            .computeIfAbsent(row.biz(), b -> new TreeMap<>())
            .computeIfAbsent(row.type().counter().wireName(), a -> new LinkedHashSet<>())
            .add(new UserActionStore.Pair(row.itemId(), row.userId()));
      }
    }
    Map<StateKey, UserActionStore.@Nullable Held> states = new HashMap<>();
    wanted.forEach(
        (biz, byAction) ->
            byAction.forEach(
                (action, pairs) -> {
                  List<UserActionStore.Pair> list = new ArrayList<>(pairs);
                  Map<UserActionStore.Pair, UserActionStore.Held> rowsOf =
                      userActions.read(biz, action, list);
                  for (UserActionStore.Pair p : list) {
                    states.put(new StateKey(biz, action, p.itemId(), p.userId()), rowsOf.get(p));
                  }
                }));
    return states;
  }

  private void writeUserStates(
      Map<StateKey, UserActionStore.@Nullable Held> initial,
      Map<StateKey, UserActionStore.@Nullable Held> state,
      Map<StateKey, Long> setAt) {
    record Group(String biz, String action) {}
    record Rows(
        List<UserActionStore.Pair> pairs,
        List<UserActionStore.Held> held,
        List<@Nullable Long> at) {
      Rows() {
        this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
      }
    }
    Map<Group, Rows> inserts = new LinkedHashMap<>();
    Map<Group, Rows> updates = new LinkedHashMap<>();
    Map<Group, List<UserActionStore.Pair>> deletes = new LinkedHashMap<>();
    state.forEach(
        (key, held) -> {
          UserActionStore.Held was = initial.get(key);
          // A like unliked and liked again within the fold holds the same values, set anew: its
          // time moves (a flag's retraction takes its weight out of the new like's bucket).
          boolean setAgain = was != null && held != null && setAt.containsKey(key);
          if (Objects.equals(held, was) && !setAgain) {
            return;
          }
          Group group = new Group(key.biz(), key.action());
          UserActionStore.Pair pair = new UserActionStore.Pair(key.itemId(), key.userId());
          if (held == null) {
            deletes.computeIfAbsent(group, g -> new ArrayList<>()).add(pair);
            return;
          }
          Rows rows = (was == null ? inserts : updates).computeIfAbsent(group, g -> new Rows());
          rows.pairs().add(pair);
          rows.held().add(held);
          rows.at().add(setAt.get(key));
        });
    deletes.forEach((g, pairs) -> userActions.delete(g.biz(), g.action(), pairs));
    updates.forEach(
        (g, rows) -> userActions.update(g.biz(), g.action(), rows.pairs(), rows.held(), rows.at()));
    inserts.forEach(
        (g, rows) -> userActions.insert(g.biz(), g.action(), rows.pairs(), rows.at(), rows.held()));
  }

  /**
   * An item's counters as one array: the six raw ones, then the six trusted ones at {@link
   * #TRUSTED}.
   */
  static long[] toArray(Interactions raw, Interactions trusted) {
    long[] a = new long[2 * TRUSTED];
    for (InteractionType t : InteractionType.values()) {
      a[t.ordinal()] = t.countIn(raw);
      a[TRUSTED + t.ordinal()] = t.countIn(trusted);
    }
    return a;
  }

  /** The six counters of {@link #toArray}'s array from {@code from} (0 raw, {@link #TRUSTED}). */
  static Interactions interactions(long[] a, int from) {
    return new Interactions(
        a[from + InteractionType.LIKE.ordinal()],
        a[from + InteractionType.VIEW.ordinal()],
        a[from + InteractionType.COMMENT.ordinal()],
        a[from + InteractionType.SHARE.ordinal()],
        a[from + InteractionType.COLLECT.ordinal()],
        a[from + InteractionType.DISLIKE.ordinal()]);
  }
}
