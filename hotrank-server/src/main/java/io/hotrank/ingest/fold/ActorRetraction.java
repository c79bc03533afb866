package io.hotrank.ingest.fold;

import io.hotrank.core.score.InteractionType;
import io.hotrank.event.EventType;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.item.CounterPages;
import io.hotrank.item.CounterStore;
import io.hotrank.item.Counters;
import io.hotrank.trust.FlagRetraction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * What a flag takes back, as a fold of its own: the trusted weight of the actor's standing likes
 * and collects comes out of each item's trusted counters (raw counters stay), the rows keep their
 * place with weight 0 (an unlike then takes back nothing, and a later unflag restores nothing), and
 * the fold takes a number like any other, so that the counts cache and the live boards apply it in
 * order and a listener that missed it reads its items back ({@link #SOURCE}'s records). Its events
 * are the undos of the actions it took back, at their times, moving no raw counter: a window board
 * by trusted weight takes each one's weight out of the bucket that holds it.
 *
 * <p>Exactly once against the folds, in the flag's transaction (which holds the actor's row). A
 * fold reads the actors' weights while it holds the fold number's row ({@link FoldApplier#write}),
 * which this takes too: a fold that committed before it is seen here, a fold after it sees the
 * flag. The locks follow the source's order, so that neither deadlocks with a fold: the event log's
 * folder takes the number's row first and the counters after it, so this does too; a Kafka fold
 * locks its counters first and takes the number last, so this locks the counters of the actor's
 * standing actions first and, holding the number, reads them again: an action a fold committed
 * meanwhile on another item fails the attempt ({@link CannotAcquireLockException}), and the flag
 * runs again, locking that item's counters in turn.
 */
public final class ActorRetraction implements FlagRetraction {

  /** The source name of a retraction's fold records. */
  public static final String SOURCE = "retraction";

  private final CounterStore counters;
  private final UserActionStore userActions;
  private final FoldNumbers numbers;
  private final FoldListeners listeners;
  private final boolean numberFirst;

  ActorRetraction(
      CounterStore counters,
      UserActionStore userActions,
      FoldNumbers numbers,
      FoldListeners listeners,
      boolean numberFirst) {
    this.counters = counters;
    this.userActions = userActions;
    this.numbers = numbers;
    this.listeners = listeners;
    this.numberFirst = numberFirst;
  }

  @Override
  public void seal() {
    numbers.lockNumber();
  }

  @Override
  public void retract(long userId) {
    if (numberFirst) {
      numbers.lockNumber();
    }
    List<UserActionStore.Standing> standing = userActions.standingOf(userId);
    Map<String, TreeSet<Long>> requested = itemsOf(standing);
    Map<String, Map<Long, CounterPages.CounterRow>> locked = new TreeMap<>();
    requested.forEach((biz, ids) -> locked.put(biz, counters.lockCounters(biz, ids)));
    if (!numberFirst) {
      // Holding the number, no fold is between weighing and committing: read again, and run
      // again if one gave the actor an action on an item whose counters are not locked here.
      numbers.lockNumber();
      standing = userActions.standingOf(userId);
      for (UserActionStore.Standing s : standing) {
        if (!requested.getOrDefault(s.biz(), new TreeSet<>()).contains(s.itemId())) {
          throw new CannotAcquireLockException(
              "a fold gave actor " + userId + " an action on an item not locked yet; run again");
        }
      }
    }
    if (standing.isEmpty()) {
      return;
    }
    long now = numbers.databaseMillis();
    // What each action takes back, as the counters clamp it: a window board takes out of its
    // bucket what the item's trusted counter loses.
    List<FoldedEvent> taken = new ArrayList<>();
    Map<String, Map<Long, long[]>> trusted = new TreeMap<>();
    for (UserActionStore.Standing s : standing) {
      CounterPages.CounterRow row = locked.getOrDefault(s.biz(), Map.of()).get(s.itemId());
      if (row == null) {
        continue; // deleted: its counters are not read again
      }
      long[] t =
          trusted
              .computeIfAbsent(s.biz(), b -> new HashMap<>())
              .computeIfAbsent(s.itemId(), id -> FoldApplier.toArray(row.counts(), row.trusted()));
      int slot = FoldApplier.TRUSTED + s.counter().ordinal();
      long before = t[slot];
      t[slot] = Math.max(0, t[slot] - s.weight());
      taken.add(new FoldedEvent(undo(s, userId), false, t[slot] - before));
    }
    long foldNo =
        numbers.number(SOURCE, record(userId, locked, taken), FoldWeights.encode(taken), now);
    Map<Fold.ItemKey, Counters> after = new LinkedHashMap<>();
    Map<Fold.ItemKey, Long> createdAt = new HashMap<>();
    trusted.forEach(
        (biz, byId) -> {
          Map<Long, Counters> written = new LinkedHashMap<>();
          byId.forEach(
              (id, t) -> {
                CounterPages.CounterRow row = locked.get(biz).get(id);
                Counters c =
                    new Counters(
                        FoldApplier.interactions(t, 0),
                        FoldApplier.interactions(t, FoldApplier.TRUSTED));
                written.put(id, c);
                after.put(new Fold.ItemKey(biz, id), c);
                createdAt.put(new Fold.ItemKey(biz, id), row.createdAtMillis());
              });
          counters.writeCounters(biz, written, Instant.ofEpochMilli(now), foldNo);
        });
    userActions.clearWeights(userId);
    Fold fold = new Fold(foldNo, taken, after, createdAt, false);
    TransactionSynchronizationManager.registerSynchronization(
        new TransactionSynchronization() {
          @Override
          public void afterCommit() {
            // As the log's folder does: no listener may apply a fold H2 could still lose.
            numbers.makeCommitsDurable();
            listeners.folded(fold);
          }
        });
  }

  /** The items of the standing actions, by biz, in id order: the order their counters lock in. */
  private static Map<String, TreeSet<Long>> itemsOf(List<UserActionStore.Standing> standing) {
    Map<String, TreeSet<Long>> ids = new TreeMap<>();
    standing.forEach(s -> ids.computeIfAbsent(s.biz(), b -> new TreeSet<>()).add(s.itemId()));
    return ids;
  }

  /**
   * What takes back a standing action, as an event of the fold: its undo, at the action's time (a
   * window board takes its weight out of the bucket that holds it); no row of a source (seq 0).
   */
  private static LoggedEvent undo(UserActionStore.Standing s, long userId) {
    EventType type = s.counter() == InteractionType.LIKE ? EventType.UNLIKE : EventType.UNCOLLECT;
    return new LoggedEvent(0, s.biz(), s.itemId(), type, userId, s.atMillis());
  }

  /**
   * The fold's record: the user, each biz with the ids of its items whose counters it changed, then
   * each biz with the actions it took back, {@code l} a like and {@code c} a collect, with the time
   * each was set: {@code "42|article:1,7;video:3|article:l1@1700000000000,c7@...;video:..."}
   * (records written before retractions listed their actions have no third part).
   */
  static String record(
      long userId,
      Map<String, Map<Long, CounterPages.CounterRow>> locked,
      List<FoldedEvent> taken) {
    Map<String, List<String>> actions = new LinkedHashMap<>();
    for (FoldedEvent f : taken) {
      LoggedEvent e = f.event();
      actions
          .computeIfAbsent(e.biz(), b -> new ArrayList<>())
          .add(
              (e.type().counter() == InteractionType.LIKE ? "l" : "c")
                  + e.itemId()
                  + "@"
                  + e.atMillis());
    }
    return userId
        + "|"
        + locked.entrySet().stream()
            .filter(e -> !e.getValue().isEmpty())
            .map(
                e ->
                    e.getKey()
                        + ":"
                        + new TreeSet<>(e.getValue().keySet())
                            .stream().map(String::valueOf).collect(Collectors.joining(",")))
            .collect(Collectors.joining(";"))
        + "|"
        + actions.entrySet().stream()
            .map(e -> e.getKey() + ":" + String.join(",", e.getValue()))
            .collect(Collectors.joining(";"));
  }

  /** The items a record names. */
  static List<Fold.ItemKey> items(String record) {
    List<Fold.ItemKey> items = new ArrayList<>();
    String[] parts = record.split("\\|", -1);
    for (String group : groups(parts[1])) {
      int colon = group.lastIndexOf(':');
      String biz = group.substring(0, colon);
      Arrays.stream(group.substring(colon + 1).split(","))
          .forEach(id -> items.add(new Fold.ItemKey(biz, Long.parseLong(id))));
    }
    return items;
  }

  /** The actions a record took back, as the events of its fold, in the order the fold took them. */
  static List<LoggedEvent> events(String record) {
    String[] parts = record.split("\\|", -1);
    List<LoggedEvent> events = new ArrayList<>();
    if (parts.length < 3) {
      return events;
    }
    long userId = Long.parseLong(parts[0]);
    for (String group : groups(parts[2])) {
      int colon = group.lastIndexOf(':');
      String biz = group.substring(0, colon);
      for (String action : group.substring(colon + 1).split(",")) {
        int at = action.indexOf('@');
        EventType type = action.charAt(0) == 'l' ? EventType.UNLIKE : EventType.UNCOLLECT;
        events.add(
            new LoggedEvent(
                0,
                biz,
                Long.parseLong(action.substring(1, at)),
                type,
                userId,
                Long.parseLong(action.substring(at + 1))));
      }
    }
    return events;
  }

  private static List<String> groups(String part) {
    return part.isEmpty() ? List.of() : List.of(part.split(";"));
  }

  /** Reads a retraction's fold back: the actions it took back, and the items it changed. */
  static final class Reader implements FoldReader {

    @Override
    public String source() {
      return SOURCE;
    }

    @Override
    public List<LoggedEvent> eventsOf(String record) {
      return events(record);
    }

    @Override
    public @Nullable List<Fold.ItemKey> itemsOf(String record) {
      return items(record);
    }
  }
}
