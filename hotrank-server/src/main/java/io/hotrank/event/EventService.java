package io.hotrank.event;

import io.hotrank.core.score.InteractionType;
import io.hotrank.core.score.Interactions;
import io.hotrank.item.CounterStore;
import io.hotrank.item.ItemNotFoundException;
import io.hotrank.item.ItemService;
import io.hotrank.problem.Violations;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies batches of interaction events to the item counters.
 *
 * <p>A batch is validated as a whole, then applied in one transaction: the counter rows of every
 * item it touches are locked (in a fixed order), the events are applied in order in memory, clamped
 * at zero, and each item gets exactly one UPDATE with its new absolute values. Applying in memory
 * after locking, rather than sending relative increments, is what keeps "never below zero" exact
 * for a batch such as unlike, like on an item with no likes.
 */
@Service
public class EventService {

  static final int MAX_EVENTS = 1000;
  private static final int DEADLOCK_ATTEMPTS = 3;
  private static final Logger log = LoggerFactory.getLogger(EventService.class);

  private final CounterStore counters;
  private final UserActionStore userActions;
  private final Clock clock;
  private final TransactionTemplate tx;

  EventService(
      CounterStore counters,
      UserActionStore userActions,
      Clock clock,
      PlatformTransactionManager transactions) {
    this.counters = counters;
    this.userActions = userActions;
    this.clock = clock;
    this.tx = new TransactionTemplate(transactions);
  }

  /**
   * Validates and applies a batch.
   *
   * @return the number of events accepted (all of them)
   * @throws io.hotrank.problem.InvalidRequestException naming every invalid event field
   * @throws ItemNotFoundException naming the first event whose item is absent or deleted
   */
  public int apply(EventBatch batch) {
    List<Accepted> events = validate(batch);
    for (int attempt = 1; ; attempt++) {
      try {
        tx.executeWithoutResult(status -> applyLocked(events));
        return events.size();
      } catch (PessimisticLockingFailureException deadlock) {
        if (attempt == DEADLOCK_ATTEMPTS) {
          throw deadlock;
        }
        log.warn(
            "Event batch of {} events hit a lock conflict, retrying ({}/{})",
            events.size(),
            attempt,
            DEADLOCK_ATTEMPTS);
      }
    }
  }

  private void applyLocked(List<Accepted> events) {
    Instant now = clock.instant();
    Map<String, List<Long>> idsByBiz = new TreeMap<>();
    for (Accepted e : events) {
      idsByBiz.computeIfAbsent(e.biz, b -> new ArrayList<>()).add(e.itemId);
    }
    Map<String, Map<Long, long[]>> locked = new HashMap<>();
    idsByBiz.forEach(
        (biz, ids) -> {
          Map<Long, long[]> byItem = new HashMap<>();
          counters.lockCounters(biz, ids).forEach((id, c) -> byItem.put(id, toArray(c)));
          locked.put(biz, byItem);
        });
    for (Accepted e : events) {
      if (!locked.get(e.biz).containsKey(e.itemId)) {
        throw new ItemNotFoundException(e.biz, e.itemId, "events[" + e.index + "].itemId");
      }
    }
    for (Accepted e : events) {
      if (e.userId == null || !e.type.perUser() || changesUserState(e, now)) {
        long[] c = locked.get(e.biz).get(e.itemId);
        int slot = e.type.counter().ordinal();
        c[slot] = Math.max(0, c[slot] + e.type.step());
      }
    }
    locked.forEach(
        (biz, byItem) -> {
          Map<Long, Interactions> absolute = new HashMap<>();
          byItem.forEach((id, c) -> absolute.put(id, toInteractions(c)));
          counters.writeCounters(biz, absolute, now);
        });
  }

  /** Records the user's like/collect (or its removal); false if it was already in that state. */
  private boolean changesUserState(Accepted e, Instant now) {
    String action = e.type.counter().wireName();
    return e.type.step() > 0
        ? userActions.record(e.biz, e.itemId, e.userId, action, now)
        : userActions.remove(e.biz, e.itemId, e.userId, action);
  }

  private static List<Accepted> validate(EventBatch batch) {
    Violations violations = new Violations();
    List<EventBatch.Event> events = batch == null ? null : batch.events();
    if (!violations.check(events != null, "events", "is required")) {
      violations.throwIfAny();
    }
    violations.check(!events.isEmpty(), "events", "must hold at least one event");
    violations.check(
        events.size() <= MAX_EVENTS,
        "events",
        "must hold at most " + MAX_EVENTS + " events, was " + events.size());
    violations.throwIfAny();
    List<Accepted> accepted = new ArrayList<>(events.size());
    for (int i = 0; i < events.size(); i++) {
      EventBatch.Event e = events.get(i);
      String at = "events[" + i + "]";
      if (!violations.check(e != null, at, "must be an object")) {
        continue;
      }
      ItemService.validateBiz(e.biz(), at + ".biz", violations);
      if (violations.check(e.itemId() != null, at + ".itemId", "is required")) {
        violations.check(e.itemId() > 0, at + ".itemId", "must be a positive integer");
      }
      EventType type = null;
      if (violations.check(e.type() != null, at + ".type", "is required")) {
        type = EventType.fromWireName(e.type()).orElse(null);
        violations.check(
            type != null,
            at + ".type",
            "unknown type '" + e.type() + "'; expected one of " + EventType.WIRE_NAMES);
      }
      if (e.userId() != null) {
        violations.check(e.userId() > 0, at + ".userId", "must be a positive integer");
      }
      if (violations.isEmpty()) {
        accepted.add(new Accepted(i, e.biz(), e.itemId(), type, e.userId()));
      }
    }
    violations.throwIfAny();
    return accepted;
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

  private record Accepted(int index, String biz, long itemId, EventType type, Long userId) {}
}
