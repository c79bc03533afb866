package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.item.ItemCards;
import io.hotrank.time.Ticker;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.jspecify.annotations.Nullable;

/**
 * The item cards a realtime board's publishes read, kept from one look at the board to the next
 * while nothing could have changed them, so that a board at rest costs no query per look.
 *
 * <p>A card changes only when a fold commits (its counters) or an item is written (its fields, its
 * deletion). Before reading cards, a look reads the event log's last fold number and the item
 * writes this instance has seen ({@link ItemCards#writesSeen}); cards read after both numbers were
 * taken are at least that new. When folds committed since the held cards were read, only the cards
 * of the items those folds changed are dropped (the folds this instance committed are remembered,
 * others read back from {@link FoldHistory}, at most {@link #FOLDS_KEPT} folds in all and {@link
 * #FOLDS_READ_BACK} read back); when an item was written, or more folds committed than that, all
 * are dropped; then only the ids not held are read. A board's looks run in its publish job, one at
 * a time per board; the map is shared by the boards' jobs. Cards held for {@link
 * ItemCards#trustedFor} are read again all the same, since the notice of a write elsewhere can be
 * lost: a board's candidates are read at most that often at rest, whatever the catalogue holds.
 *
 * <p>Before this, every look read every card of the board's top from the database: with the shipped
 * boards, 1,000 items and no events, PostgreSQL counted about 480 index scans a second on {@code
 * hr_item}, four looks a second of the live board's 120-odd candidates. Thread-safe.
 */
final class PublishedCards {

  /**
   * Cards held per board at most before they are read afresh: a family's looks read the candidates
   * of up to 500 segments each, tens of thousands of cards, which the next looks mostly reuse.
   */
  private static final int MAX_HELD = 100_000;

  /** Folds whose changed items are remembered, and the most a look drops cards for one by one. */
  static final int FOLDS_KEPT = 256;

  /**
   * Folds of other instances (not remembered here) a look reads back from the event log at most:
   * past that, reading their events costs more than reading the cards afresh, and all are dropped.
   */
  static final int FOLDS_READ_BACK = 16;

  /** The items each recent fold changed, by fold number. */
  private final ConcurrentSkipListMap<Long, Set<Fold.ItemKey>> changedBy =
      new ConcurrentSkipListMap<>();

  private record Held(
      long foldNo, long writes, long readAt, Map<Long, ItemCards.Card> cards, Set<Long> gone) {}

  private final ItemCards items;
  private final FoldHistory history;
  private final Ticker ticker;
  private final long trustedNanos;
  private final Map<String, Held> byBoard = new ConcurrentHashMap<>();

  PublishedCards(ItemCards items, FoldHistory history, Ticker ticker) {
    this.items = items;
    this.history = history;
    this.ticker = ticker;
    this.trustedNanos = items.trustedFor().toNanos();
  }

  /** The cards of the live items among {@code ids}, as new as the database's now. */
  Map<Long, ItemCards.Card> cards(BoardDefinition board, Collection<Long> ids) {
    long writes = items.writesSeen();
    long foldNo = history.lastFoldNo();
    long now = ticker.read();
    // By name and biz: a test or a redefinition may give one name to another biz.
    String key = board.name() + '/' + board.biz();
    Held held = byBoard.get(key);
    if (held == null
        || held.writes() != writes
        || now - held.readAt() >= trustedNanos
        || held.cards().size() + held.gone().size() > MAX_HELD) {
      held = new Held(foldNo, writes, now, new HashMap<>(), new HashSet<>());
    } else if (held.foldNo() != foldNo) {
      Set<Long> changed =
          foldNo > held.foldNo() ? changedSince(board.biz(), held.foldNo(), foldNo) : null;
      if (changed == null) {
        held = new Held(foldNo, writes, now, new HashMap<>(), new HashSet<>());
      } else {
        Map<Long, ItemCards.Card> kept = new HashMap<>(held.cards());
        kept.keySet().removeAll(changed);
        // An item a fold counted exists: read again, should it have been read as gone.
        Set<Long> gone = new HashSet<>(held.gone());
        gone.removeAll(changed);
        held = new Held(foldNo, writes, held.readAt(), kept, gone);
      }
    }
    List<Long> missing = new ArrayList<>();
    for (Long id : ids) {
      if (!held.cards().containsKey(id) && !held.gone().contains(id)) {
        missing.add(id);
      }
    }
    if (!missing.isEmpty()) {
      Map<Long, ItemCards.Card> read = items.cards(board.biz(), missing);
      Map<Long, ItemCards.Card> cards = new HashMap<>(held.cards());
      Set<Long> gone = new HashSet<>(held.gone());
      cards.putAll(read);
      for (Long id : missing) {
        if (!read.containsKey(id)) {
          gone.add(id);
        }
      }
      held = new Held(foldNo, writes, held.readAt(), cards, gone);
    }
    byBoard.put(key, held);
    Map<Long, ItemCards.Card> found = new HashMap<>();
    for (Long id : ids) {
      ItemCards.Card card = held.cards().get(id);
      if (card != null) {
        found.put(id, card);
      }
    }
    return found;
  }

  /** Remembers the items a fold this instance committed changed. */
  void folded(Fold fold) {
    remember(fold.foldNo(), fold.counters().keySet());
  }

  /**
   * The items of {@code biz} that the folds after {@code from} up to {@code to} changed; null when
   * some fold's items are unknown (pruned) or the folds are too many to read one by one (more than
   * {@link #FOLDS_KEPT}, or more than {@link #FOLDS_READ_BACK} to read back from the log).
   */
  private @Nullable Set<Long> changedSince(String biz, long from, long to) {
    if (to - from > FOLDS_KEPT
        || (to - from) - changedBy.subMap(from + 1, true, to, true).size() > FOLDS_READ_BACK) {
      return null; // decided before reading any: reading back then dropping all costs both
    }
    Set<Long> ids = new HashSet<>();
    int readBack = 0;
    for (long f = from + 1; f <= to; f++) {
      Set<Fold.ItemKey> keys = changedBy.get(f);
      if (keys == null) {
        if (++readBack > FOLDS_READ_BACK) {
          return null; // remembered folds were evicted meanwhile
        }
        List<LoggedEvent> events = history.eventsOf(f);
        if (events == null) {
          return null;
        }
        Set<Fold.ItemKey> read = new HashSet<>();
        for (LoggedEvent e : events) {
          read.add(new Fold.ItemKey(e.biz(), e.itemId()));
        }
        keys = remember(f, read);
      }
      for (Fold.ItemKey key : keys) {
        if (key.biz().equals(biz)) {
          ids.add(key.itemId());
        }
      }
    }
    return ids;
  }

  private Set<Fold.ItemKey> remember(long foldNo, Set<Fold.ItemKey> keys) {
    Set<Fold.ItemKey> copy = Set.copyOf(keys);
    changedBy.put(foldNo, copy);
    while (changedBy.size() > FOLDS_KEPT) {
      changedBy.pollFirstEntry();
    }
    return copy;
  }
}
