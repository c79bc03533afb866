package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldHistory;
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
import java.util.concurrent.locks.ReentrantLock;
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

  /**
   * A board's held cards, changed in place under its lock (a look's calls follow one another; the
   * lock keeps two calls of one board, should they meet, from mixing cards of different folds): a
   * family holds tens of thousands, which a copy per call would cost more than the reads it saves.
   */
  private static final class Held {
    final ReentrantLock lock = new ReentrantLock();
    Map<Long, ItemCards.Card> cards = new HashMap<>();
    Set<Long> gone = new HashSet<>();
    long foldNo = -1;
    long writes = -1;
    long readAt;

    void reset(long foldNo, long writes, long readAt) {
      // New tables: a cleared one keeps its capacity (a family's, a hundred thousand slots).
      cards = new HashMap<>();
      gone = new HashSet<>();
      this.foldNo = foldNo;
      this.writes = writes;
      this.readAt = readAt;
    }
  }

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
    // By name and biz: a test or a redefinition may give one name to another biz.
    Held held = byBoard.computeIfAbsent(board.name() + '/' + board.biz(), k -> new Held());
    held.lock.lock();
    try {
      long writes = items.writesSeen();
      long foldNo = history.lastFoldNo();
      long now = ticker.read();
      if (held.writes != writes
          || held.foldNo < 0
          || now - held.readAt >= trustedNanos
          || held.cards.size() + held.gone.size() > MAX_HELD) {
        held.reset(foldNo, writes, now);
      } else if (held.foldNo != foldNo) {
        Set<Long> changed =
            foldNo > held.foldNo ? changedSince(board.biz(), held.foldNo, foldNo) : null;
        if (changed == null) {
          held.reset(foldNo, writes, now);
        } else {
          held.cards.keySet().removeAll(changed);
          // An item a fold counted exists: read again, should it have been read as gone.
          held.gone.removeAll(changed);
          held.foldNo = foldNo;
        }
      }
      List<Long> missing = new ArrayList<>();
      for (Long id : ids) {
        if (!held.cards.containsKey(id) && !held.gone.contains(id)) {
          missing.add(id);
        }
      }
      if (!missing.isEmpty()) {
        Map<Long, ItemCards.Card> read = items.cards(board.biz(), missing);
        held.cards.putAll(read);
        for (Long id : missing) {
          if (!read.containsKey(id)) {
            held.gone.add(id);
          }
        }
      }
      Map<Long, ItemCards.Card> found = new HashMap<>();
      for (Long id : ids) {
        ItemCards.Card card = held.cards.get(id);
        if (card != null) {
          found.put(id, card);
        }
      }
      return found;
    } finally {
      held.lock.unlock();
    }
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
        List<Fold.ItemKey> items = history.itemsOf(f);
        if (items == null) {
          return null;
        }
        keys = remember(f, new HashSet<>(items));
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
