package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.ControlsApplied;
import io.hotrank.core.score.Interactions;
import io.hotrank.core.score.RankKey;
import io.hotrank.core.topn.BoundedTopN;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.item.CounterPages;
import io.hotrank.item.Item;
import io.hotrank.item.ItemCards;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live boards ({@code type: live}): Reddit and decay boards kept in order by the fold instead of
 * rescanned on a cron, since their formulas order any two items the same way at every instant
 * ({@link RankKey}).
 *
 * <p>Each fold writes the rank key of every item of the board's biz whose counters it changed, once
 * (the fold number is checked and recorded with the change, as for leaderboards), from the fold's
 * own counters; a board found behind catches up from {@link FoldHistory} with the current counters
 * of the items the missed folds touched. The set keeps {@link #keep} members: when it trims, it
 * records the best member it let go (the floor), and from then on holds every item of the window
 * ranked above the floor, since an item outside it re-enters with its exact key as soon as its
 * counters change. A read that finds fewer live members above the floor than the board needs
 * (unlikes, deletes and items ageing out thinned it) rebuilds it by one keyset scan, as does a
 * board with no data (Redis lost it, the definition changed, or an operator asked).
 *
 * <p>Thread-safe.
 */
final class LiveBoards implements RealtimeKind, FoldCursor.Followed {

  private static final Logger log = LoggerFactory.getLogger(LiveBoards.class);

  /** The rank set's order: key, then newer, then larger id (its members' order in Redis). */
  static final Comparator<LiveStore.Ranked> BEST_FIRST =
      Comparator.comparingDouble(LiveStore.Ranked::key)
          .thenComparingLong(LiveStore.Ranked::createdAtMillis)
          .thenComparingLong(LiveStore.Ranked::itemId)
          .reversed();

  private final LiveStore store;
  private final FoldHistory history;
  private final CounterPages counters;
  private final ItemCards items;
  private final PublishedCards published;
  private final Clock clock;
  private final int scanPageSize;
  private final MeterRegistry meters;
  private final FoldCursor cursor;

  /** Live operator controls per board, as the last publish saw them: each needs a spare member. */
  private final Map<String, Integer> controlled = new ConcurrentHashMap<>();

  LiveBoards(
      LiveStore store,
      FoldHistory history,
      CounterPages counters,
      ItemCards items,
      PublishedCards published,
      Clock clock,
      int scanPageSize,
      MeterRegistry meters) {
    this.store = store;
    this.history = history;
    this.counters = counters;
    this.items = items;
    this.published = published;
    this.clock = clock;
    this.scanPageSize = scanPageSize;
    this.meters = meters;
    this.cursor = new FoldCursor(history, this);
  }

  /**
   * How many members the rank set keeps: the board, a spare member per live control, the
   * publisher's reserve, and as many again as the board's size, so that unlikes and deletes rarely
   * thin it below what the board needs before new events refill it.
   */
  int keep(BoardDefinition board) {
    return 2 * board.size()
        + ControlsApplied.reserve(board)
        + controlled.getOrDefault(board.name(), 0);
  }

  @Override
  public boolean keeps(BoardDefinition board) {
    return board.kind() instanceof BoardKind.Live && !board.segmented() && board.scaleBy() == null;
  }

  @Override
  public void apply(BoardDefinition board, Fold fold) {
    List<LiveStore.Keyed> items = new ArrayList<>();
    RankKey order = rankKey(board);
    fold.counters()
        .forEach(
            (key, counts) -> {
              if (key.biz().equals(board.biz())) {
                long createdAt = fold.createdAt().get(key);
                items.add(
                    new LiveStore.Keyed(
                        key.itemId(),
                        createdAt,
                        order.key(board.ranked(counts), Instant.ofEpochMilli(createdAt))));
              }
            });
    String outcome =
        store.apply(
            board, fold.foldNo(), fold.foldNo() - 1, null, keep(board), windowStart(board), items);
    cursor.folded(board, fold.foldNo(), outcome);
  }

  /** Attempts at admitting a created item before leaving it to its first fold or a rebuild. */
  private static final int ADMIT_ATTEMPTS = 5;

  /**
   * Adds a just created item to the live boards of its biz. No fold has changed its counters, so
   * none will write its key until it gets an interaction, yet it ranks (a Reddit board lists new
   * items with no votes above older ones). Exactly once against the folds: the last committed fold
   * is read before the item's counters, and the key is written only if the board has applied no
   * later fold, one that may have changed the item; otherwise read again.
   */
  @Override
  public void created(BoardDefinition board, long itemId, long createdAtMillis) {
    for (int attempt = 1; attempt <= ADMIT_ATTEMPTS; attempt++) {
      long lastFoldNo = history.lastFoldNo();
      CounterPages.Counted row = counters.findAll(board.biz(), List.of(itemId)).get(itemId);
      if (row == null || row.foldNo() != 0) {
        break; // deleted, or a fold changed it: that fold writes its key
      }
      String outcome =
          store.admit(
              board,
              lastFoldNo,
              keep(board),
              windowStart(board),
              List.of(
                  keyed(rankKey(board), itemId, createdAtMillis, board.ranked(row.counters()))));
      if (!outcome.equals("moved")) {
        break; // admitted, present, or left to the rebuild it waits for ("none")
      }
      if (attempt == ADMIT_ATTEMPTS) {
        // Its first event writes its key; a rescan for one item would cost more than it helps.
        log.info(
            "Live board '{}': item {} was created while folds kept moving the board; it appears"
                + " at its first event or the next rebuild",
            board.name(),
            itemId);
      }
    }
  }

  /** The last fold the board applied, or null when Redis holds none of its data. */
  @Override
  public @Nullable Long applied(BoardDefinition board) {
    return store.applied(board);
  }

  /** Brings the board up to {@code upTo} when it has data and is behind. */
  @Override
  public void catchUp(BoardDefinition board, long upTo) {
    cursor.catchUp(board, upTo);
  }

  /**
   * Writes the current keys of the items missed folds changed (counters read now are at least as
   * new as fold {@code to}), so that a board far behind (a long rebuild) catches up without a
   * rescan.
   */
  @Override
  public boolean writeCurrent(BoardDefinition board, long from, long to, Set<Long> ids) {
    RankKey order = rankKey(board);
    Map<Long, ItemCards.Card> cards = items.cards(board.biz(), ids);
    List<LiveStore.Keyed> keyed = new ArrayList<>();
    for (ItemCards.Card card : cards.values()) {
      keyed.add(keyed(order, card.itemId(), card.createdAtMillis(), board.ranked(card.counters())));
    }
    // A deleted item is not folded again; its member leaves when a publish finds it gone.
    String outcome = store.apply(board, to, null, null, keep(board), windowStart(board), keyed);
    return outcome.equals("applied") || outcome.equals("done");
  }

  @Override
  public void forget(BoardDefinition board, String why) {
    log.info("Live board '{}' will be rebuilt from the database because {}", board.name(), why);
    store.forget(board);
  }

  /**
   * Forgets the board's data, so that its publish job, under the board's lease, rebuilds it by a
   * scan ({@link #rescan}).
   */
  @Override
  public boolean rebuild(BoardDefinition board, String why) {
    forget(board, why);
    return true;
  }

  /**
   * Refills the board from the database's counters by one keyset scan over its window, replacing
   * what Redis holds. First forgets the fold the board applied, so that folds leave it alone until
   * the scan's result replaces it at the fold committed before the scan; folds after that catch up
   * from the history. Run by the board's publish job, under its lease.
   */
  void rescan(BoardDefinition board, String cause, String why) {
    meters.counter("hotrank.live.rebuilds", "board", board.name(), "cause", cause).increment();
    store.forget(board);
    long foldNo = history.lastFoldNo();
    long windowStart = windowStart(board);
    int keep = keep(board);
    RankKey order = rankKey(board);
    BoundedTopN<LiveStore.Ranked> top = new BoundedTopN<>(keep + 1, BEST_FIRST);
    long scanned =
        counters.scanWindow(
            board.biz(),
            windowStart,
            Long.MAX_VALUE,
            scanPageSize,
            () -> false,
            page -> {
              for (CounterPages.CounterRow row : page) {
                top.offer(
                    new LiveStore.Ranked(
                        row.itemId(),
                        row.createdAtMillis(),
                        order.key(
                            board.ranked(row.counters()),
                            Instant.ofEpochMilli(row.createdAtMillis()))));
              }
            });
    List<LiveStore.Ranked> best = top.toSortedList();
    String floor = "";
    if (best.size() > keep) {
      floor = LiveStore.floor(best.getLast());
      best = best.subList(0, keep);
    }
    List<LiveStore.Keyed> items = new ArrayList<>(best.size());
    for (LiveStore.Ranked r : best) {
      items.add(new LiveStore.Keyed(r.itemId(), r.createdAtMillis(), r.key()));
    }
    String outcome = store.apply(board, foldNo, null, floor, keep, windowStart, items);
    // Items created while the board had no data: a page of the scan may have passed them by.
    for (LiveStore.Keyed pending : store.takePending(board)) {
      created(board, pending.itemId(), pending.createdAtMillis());
    }
    log.info(
        "Live board '{}' rebuilt at fold {} from {} items ({} kept) because {}: {}",
        board.name(),
        foldNo,
        scanned,
        items.size(),
        why,
        outcome);
  }

  /**
   * The board's candidates at {@code now}, best first: its top {@code wanted} live items of the
   * window with their cards, scored at {@code now}; null when Redis holds none of the board's data.
   * Members whose item was deleted leave the set. When the set knows too few items (it was trimmed,
   * then thinned), it is rebuilt first.
   */
  @Override
  public @Nullable List<BoardEntry> entries(BoardDefinition board, Instant now, int controls) {
    controlled.put(board.name(), controls);
    int wanted = board.size() + controls + ControlsApplied.reserve(board);
    @Nullable Candidates found = read(board, now, wanted);
    if (found == null) {
      rescan(board, "no-data", "Redis holds none of its data");
      found = read(board, now, wanted);
    } else if (found.entries().size() < wanted && found.trimmed()) {
      rescan(
          board,
          "thinned",
          "only " + found.entries().size() + " of the " + wanted + " items it needs are left");
      found = read(board, now, wanted);
    }
    // Still none (forgotten again meanwhile): the caller keeps serving what it published.
    return found == null ? null : found.entries();
  }

  private record Candidates(List<BoardEntry> entries, boolean trimmed) {}

  private @Nullable Candidates read(BoardDefinition board, Instant now, int wanted) {
    long windowStart = windowStart(board, now);
    long tolerantStart = windowStart(board, now.minus(CLOCK_TOLERANCE));
    int fetch = wanted;
    while (true) {
      LiveStore.Top top = store.top(board, tolerantStart, fetch, keep(board));
      if (!top.hasData()) {
        return null;
      }
      Map<Long, ItemCards.Card> cards =
          published.cards(board, top.ranked().stream().map(LiveStore.Ranked::itemId).toList());
      List<LiveStore.Ranked> gone = new ArrayList<>();
      List<BoardEntry> entries = new ArrayList<>();
      for (LiveStore.Ranked r : top.ranked()) {
        ItemCards.Card card = cards.get(r.itemId());
        if (card == null) {
          gone.add(r);
        } else if (card.createdAtMillis() <= now.toEpochMilli()
            && card.createdAtMillis() >= windowStart) {
          entries.add(entry(board, card, now));
        }
      }
      if (!gone.isEmpty()) {
        store.remove(board, gone);
      }
      if (entries.size() >= wanted || top.ranked().size() < fetch) {
        entries.sort(ControlsApplied.BEST_FIRST);
        List<BoardEntry> ranked = new ArrayList<>(Math.min(entries.size(), wanted));
        for (BoardEntry e : entries.subList(0, Math.min(entries.size(), wanted))) {
          ranked.add(e.withRank(ranked.size() + 1));
        }
        return new Candidates(ranked, top.trimmed());
      }
      fetch *= 2;
    }
  }

  /**
   * Whether two candidate lists show another board: other items, another order, other counters or
   * fields. Scores are left out: a decay board's scores fall every instant while its order holds,
   * and it is published again when its order or counters change, not every second. (A window
   * board's scores change while its order holds too, but as buckets leave its window, which readers
   * must see.)
   */
  @Override
  public boolean changed(List<BoardEntry> published, List<BoardEntry> candidates) {
    return changedButScores(published, candidates);
  }

  /** Whether two candidate lists differ in anything but their scores. */
  static boolean changedButScores(List<BoardEntry> published, List<BoardEntry> candidates) {
    if (published.size() != candidates.size()) {
      return true;
    }
    for (int i = 0; i < published.size(); i++) {
      if (!published.get(i).withControl(0, null).equals(candidates.get(i).withControl(0, null))) {
        return true;
      }
    }
    return false;
  }

  static BoardEntry entry(BoardDefinition board, ItemCards.Card card, Instant now) {
    return entry(
        board, card, board.scoreAt(board.ranked(card.counters()), card.createdAtMillis(), now));
  }

  /** A card as an unranked entry of a realtime board, with its score there. */
  static BoardEntry entry(BoardDefinition board, ItemCards.Card card, double score) {
    return new BoardEntry(
        0,
        board.biz(),
        card.itemId(),
        score,
        card.title(),
        card.authorId(),
        Instant.ofEpochMilli(card.createdAtMillis()),
        Item.Counts.of(card.counts()));
  }

  private static LiveStore.Keyed keyed(
      RankKey order, long itemId, long createdAtMillis, Interactions counts) {
    return new LiveStore.Keyed(
        itemId, createdAtMillis, order.key(counts, Instant.ofEpochMilli(createdAtMillis)));
  }

  static RankKey rankKey(BoardDefinition board) {
    return Objects.requireNonNull(board.score().rankKey(), "a live board's formula has a rank key");
  }

  /**
   * How far the window's start the folds and rebuilds use lies before this instance's clock's:
   * another instance's clock may be behind, and its publish must still find what its window holds.
   * A member older than its reader's window is dropped by the read itself.
   */
  static final Duration CLOCK_TOLERANCE = Duration.ofMinutes(5);

  private long windowStart(BoardDefinition board) {
    return windowStart(board, clock.instant().minus(CLOCK_TOLERANCE));
  }

  static long windowStart(BoardDefinition board, Instant now) {
    return now.minus(board.window()).toEpochMilli();
  }
}
