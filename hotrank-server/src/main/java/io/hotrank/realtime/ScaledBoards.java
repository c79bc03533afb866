package io.hotrank.realtime;

import static io.hotrank.realtime.LiveBoards.CLOCK_TOLERANCE;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.SegmentBy;
import io.hotrank.ingest.Fold;
import io.hotrank.item.CounterPages;
import io.hotrank.item.Item;
import io.hotrank.item.ItemCards;
import io.hotrank.realtime.LiveFamilies.Ordering;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live boards and leaderboards with {@code scale-by}: each item's score divided by {@code log10(10
 * + n)}, n the interactions of its largest segment over the board's window, so that the largest
 * community does not fill the board (Lemmy's scaled rank).
 *
 * <p>A scaled score cannot be a set's key: n moves with every event of a segment, which would move
 * every member of it. So the items are kept unscaled, in one set per segment as a {@link
 * LiveFamilies live family} keeps them (items in no segment in a set of their own, {@link
 * LiveFamilies#UNSEGMENTED}), and each look merges the sets best scaled first: an item's scaled
 * score is at most its unscaled score over its segment's divisor (its largest segment's divisor is
 * at least that), so the next member of each set bounds what the set has left. A look pops the
 * member of the best bound, scores it exactly from its card (its segments, hence its divisor), and
 * stops once its best items all score above every set's bound (Fagin's threshold algorithm); a look
 * reads each segment's first members, then only deeper where the merge goes.
 *
 * <p>The sets keep every member of the window ({@link #EVERY_MEMBER}): a set trimmed to its best
 * unscaled members could be filled with items that also sit in a larger segment, and so score less
 * than an item of this segment alone that it trimmed. Every member kept, the board is exact for the
 * n it holds; Redis holds one member per segment of each item of the window.
 *
 * <p>n is what a batch board with {@code scale-by} counts: every interaction (each type counted
 * once) of the segment's items in the window, read by one labelled scan of the window. The scan
 * runs on the board's first look, then at most once a {@link #RECOUNT_EVERY} once a fold, an edit
 * or a delete changed what some set shows, never at rest: between two counts a segment's divisor
 * holds still (it moves with the logarithm of n, so a minute's events move it little). A recount is
 * published even when the board's order holds.
 *
 * <p>Thread-safe: the folds and the publish job of one board may run at once.
 */
final class ScaledBoards implements RealtimeKind {

  private static final Logger log = LoggerFactory.getLogger(ScaledBoards.class);

  /** How often a changing board counts its segments' interactions again, at most. */
  static final Duration RECOUNT_EVERY = Duration.ofMinutes(1);

  /** How many members a scaled board's sets keep: all. */
  static final int EVERY_MEMBER = 1 << 30;

  /** Changed segments a look takes at most: only whether some changed matters here. */
  private static final int TAKE = 1_000;

  /** Segments per script reading their first members. */
  private static final int TOP_CHUNK = 500;

  /** Members a deeper read of a set adds at most (a set may hold the whole window). */
  private static final int DEEPER_AT_MOST = 4_096;

  /** Members popped before their cards are read at once. */
  private static final int CARD_BATCH = 256;

  private final LiveFamilies sets;
  private final LiveFamilyStore store;
  private final CounterPages counters;
  private final PublishedCards published;
  private final Clock clock;
  private final int scanPageSize;

  /** Each board's segment sizes (n), as last counted. */
  private final Map<String, Sizes> sizes = new ConcurrentHashMap<>();

  /** The boards some of whose sets changed since their last count. */
  private final Set<String> changedSinceCount = ConcurrentHashMap.newKeySet();

  /** The boards recounted since their last publish: published even when their order holds. */
  private final Set<String> recounted = ConcurrentHashMap.newKeySet();

  /** A board's interactions per segment, and when they were counted (epoch ms). */
  private record Sizes(Map<String, Long> perSegment, long countedAt) {
    double divisor(String segment) {
      return segment.equals(LiveFamilies.UNSEGMENTED)
          ? 1
          : Math.log10(10 + perSegment.getOrDefault(segment, 0L));
    }
  }

  ScaledBoards(
      LiveFamilies sets,
      LiveFamilyStore store,
      CounterPages counters,
      PublishedCards published,
      Clock clock,
      int scanPageSize) {
    this.sets = sets;
    this.store = store;
    this.counters = counters;
    this.published = published;
    this.clock = clock;
    this.scanPageSize = scanPageSize;
  }

  @Override
  public boolean keeps(BoardDefinition board) {
    return (board.kind() instanceof BoardKind.Live || board.kind() instanceof BoardKind.Leaderboard)
        && board.scaleBy() != null;
  }

  @Override
  public void apply(BoardDefinition board, Fold fold) {
    sets.apply(board, fold);
  }

  @Override
  public void catchUp(BoardDefinition board, long lastFoldNo) {
    sets.catchUp(board, lastFoldNo);
  }

  @Override
  public void created(BoardDefinition board, long itemId, long createdAtMillis) {
    sets.created(board, itemId, createdAtMillis);
  }

  @Override
  public void edited(BoardDefinition board, long itemId) {
    sets.edited(board, itemId);
  }

  @Override
  public void deleted(BoardDefinition board, long itemId, long createdAtMillis) {
    sets.deleted(board, itemId, createdAtMillis);
  }

  @Override
  public boolean rebuild(BoardDefinition board, String why) {
    sizes.remove(board.name());
    return sets.rebuild(board, why);
  }

  /**
   * Whether the candidates show another board: other items, order, counters or fields, as a live
   * board; or scores in other proportions (a decay board's scores all fall by one factor from one
   * instant to the next, a recount's new divisors do not), so that new divisors are published.
   */
  @Override
  public boolean changed(
      BoardDefinition board, List<BoardEntry> previous, List<BoardEntry> candidates) {
    return recounted.remove(board.name()) || changed(previous, candidates);
  }

  @Override
  public boolean changed(List<BoardEntry> previous, List<BoardEntry> candidates) {
    if (LiveBoards.changedButScores(previous, candidates)) {
      return true;
    }
    if (previous.isEmpty()) {
      return false;
    }
    double before = previous.getFirst().uncontrolled().score();
    double now = candidates.getFirst().uncontrolled().score();
    for (int i = 1; i < previous.size(); i++) {
      double a = previous.get(i).uncontrolled().score() * now;
      double b = candidates.get(i).uncontrolled().score() * before;
      if (Math.abs(a - b) > 1e-9 * Math.max(Math.abs(a), Math.abs(b))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The board's candidates at {@code now}, best scaled first; null when Redis holds none of its
   * data even after a rebuild. Recounts the segments first when due.
   */
  @Override
  public @Nullable List<BoardEntry> entries(BoardDefinition board, Instant now, int controls) {
    sets.controls(board, controls);
    int need = board.size() + controls + ControlsApplied.RESERVE;
    Ordering order = Ordering.of(board);
    long tolerantStart = order.windowStart(now.minus(CLOCK_TOLERANCE));
    LiveFamilyStore.Taken taken =
        store.take(board, tolerantStart, sets.keep(board), sets.visible(board), TAKE);
    if (!taken.hasData()) {
      sets.rescan(board, "no-data", "Redis holds none of its data");
      taken = store.take(board, tolerantStart, sets.keep(board), sets.visible(board), TAKE);
      if (!taken.hasData()) {
        return null;
      }
    }
    store.published(board);
    if (!taken.changed().isEmpty()) {
      changedSinceCount.add(board.name());
    }
    Sizes counted = sizes(board, order, now);
    // Null when forgotten meanwhile: the next look rebuilds it. The sets keep every member, so
    // none thins below what the merge needs.
    return merge(board, order, counted, now, need);
  }

  /**
   * The segment sizes, counted again when none are held, or when a set changed since the last count
   * and that was {@link #RECOUNT_EVERY} ago.
   */
  private Sizes sizes(BoardDefinition board, Ordering order, Instant now) {
    Sizes held = sizes.get(board.name());
    if (held != null
        && (!changedSinceCount.contains(board.name())
            || now.toEpochMilli() - held.countedAt() < RECOUNT_EVERY.toMillis())) {
      return held;
    }
    changedSinceCount.remove(board.name());
    SegmentBy scale = Objects.requireNonNull(board.scaleBy());
    Map<String, Long> perSegment = new HashMap<>();
    long started = clock.millis();
    long scanned =
        counters.scanLabelledWindow(
            board.biz(),
            order.windowStart(now),
            now.toEpochMilli(),
            scanPageSize,
            EnumSet.of(scale.label()),
            () -> false,
            page -> {
              for (CounterPages.LabelledRow labelled : page) {
                long n = labelled.row().counts().total();
                for (String segment : scale.segments(labelled.labels())) {
                  perSegment.merge(segment, n, Long::sum);
                }
              }
            });
    log.debug(
        "Scaled board '{}': counted {} segments over {} items in {} ms",
        board.name(),
        perSegment.size(),
        scanned,
        clock.millis() - started);
    Sizes counted = new Sizes(perSegment, now.toEpochMilli());
    sizes.put(board.name(), counted);
    recounted.add(board.name());
    return counted;
  }

  /** What is left of one segment's set: the members read so far, from the next to take. */
  private static final class Cursor {
    final String segment;
    final double divisor;

    /** The largest divisor of any segment: a negative score is largest over it. */
    final double largest;

    List<LiveStore.Ranked> read = List.of();
    int next;
    boolean more;

    Cursor(String segment, double divisor, double largest) {
      this.segment = segment;
      this.divisor = divisor;
      this.largest = largest;
    }

    /**
     * The member that bounds those not taken yet: the next one, or the last read when all read are
     * taken (the set orders equal keys younger first, as boards order equal scores).
     */
    LiveStore.Ranked at() {
      return next < read.size() ? read.get(next) : read.getLast();
    }

    /**
     * At most the scaled score of any member not taken yet: a positive score is largest over this
     * segment's divisor (an item's own is at least that), a negative one over the largest of all.
     */
    double bound(Ordering order, Instant now) {
      double score = order.scoreOfKey(at().key(), now);
      return score >= 0 ? score / divisor : score / largest;
    }
  }

  /** An item taken from a set, scored once its card is read. */
  private record Popped(LiveStore.Ranked ranked, String segment) {}

  private static final Comparator<BoardEntry> WORST_FIRST = ControlsApplied.BEST_FIRST.reversed();

  private @Nullable List<BoardEntry> merge(
      BoardDefinition board, Ordering order, Sizes counted, Instant now, int need) {
    List<String> segments = new ArrayList<>(store.segments(board));
    if (segments.isEmpty()) {
      return List.of();
    }
    int keep = sets.keep(board);
    // Enough first members of each set that a board of few segments is merged in one read.
    int first = Math.clamp(2L * need / segments.size() + 1, 2, keep);
    Map<String, Cursor> cursors = new LinkedHashMap<>();
    Map<String, Integer> wanted = new LinkedHashMap<>();
    double largest = 1;
    for (String segment : segments) {
      largest = Math.max(largest, counted.divisor(segment));
    }
    for (String segment : segments) {
      cursors.put(segment, new Cursor(segment, counted.divisor(segment), largest));
      wanted.put(segment, first);
    }
    if (!read(board, cursors, wanted)) {
      return null;
    }
    PriorityQueue<Cursor> bounds =
        new PriorityQueue<>(
            Comparator.comparingDouble((Cursor c) -> c.bound(order, now)).reversed());
    cursors.values().stream().filter(c -> !c.read.isEmpty()).forEach(bounds::add);

    long windowStart = order.windowStart(now);
    PriorityQueue<BoardEntry> best = new PriorityQueue<>(WORST_FIRST);
    Set<Long> seen = new HashSet<>();
    List<Popped> pending = new ArrayList<>();
    List<LiveStore.Ranked> gone = new ArrayList<>();
    Set<Long> misplaced = new HashSet<>();
    while (true) {
      Cursor top = bounds.peek();
      if (top == null) {
        score(board, order, counted, now, windowStart, need, pending, best, gone, misplaced);
        break;
      }
      double bound = top.bound(order, now);
      // Popped members are scored in batches: when a batch is full, when the board has too few
      // candidates without them, or when no member left could beat the last candidate.
      if (!pending.isEmpty()
          && (pending.size() >= CARD_BATCH
              || (best.size() < need && best.size() + pending.size() >= need)
              || (best.size() >= need && best.peek().score() >= bound))) {
        score(board, order, counted, now, windowStart, need, pending, best, gone, misplaced);
        continue;
      }
      if (pending.isEmpty() && best.size() >= need) {
        BoardEntry last = best.peek();
        if (last.score() > bound) {
          break; // no member left in any set can score above the board's last candidate
        }
        if (last.score() == bound && ranksAhead(last, top.at())) {
          bounds.poll(); // what this set has left ties at best, and is older: it ranks below
          continue;
        }
      }
      bounds.poll();
      if (top.next < top.read.size()) {
        LiveStore.Ranked taken = top.read.get(top.next++);
        if (seen.add(taken.itemId())) {
          pending.add(new Popped(taken, top.segment));
        }
        bounds.add(top);
      } else if (top.more) {
        // Its members read so far are taken, and the set holds more: read deeper.
        if (!read(board, Map.of(top.segment, top), Map.of(top.segment, deeper(top, keep)))) {
          return null;
        }
        if (top.next < top.read.size()) {
          bounds.add(top);
        }
      }
    }
    if (!gone.isEmpty()) {
      sets.remove(board, gone);
    }
    misplaced.forEach(id -> sets.place(board, id, null));
    List<BoardEntry> entries = new ArrayList<>(best);
    entries.sort(ControlsApplied.BEST_FIRST);
    List<BoardEntry> ranked = new ArrayList<>(entries.size());
    for (BoardEntry e : entries) {
      ranked.add(e.withRank(ranked.size() + 1));
    }
    return ranked;
  }

  /** Whether an entry ranks ahead of a member of equal score: younger, then the larger id. */
  private static boolean ranksAhead(BoardEntry entry, LiveStore.Ranked member) {
    long created = entry.createdAt().toEpochMilli();
    return created > member.createdAtMillis()
        || (created == member.createdAtMillis() && entry.itemId() > member.itemId());
  }

  /** Members a deeper read asks: four times what was read, at most {@link #DEEPER_AT_MOST} more. */
  private static int deeper(Cursor cursor, int keep) {
    long size = cursor.read.size();
    return (int) Math.min(keep + 1L, Math.min(4 * size, size + DEEPER_AT_MOST));
  }

  /**
   * Reads the first {@code wanted} members of each cursor's set, from the top: a deeper read
   * replaces what was read and starts over (members already taken are skipped as seen), so that a
   * member that left the set meanwhile moves no other past the cursor.
   *
   * @return false when the sets were forgotten meanwhile
   */
  private boolean read(
      BoardDefinition board, Map<String, Cursor> cursors, Map<String, Integer> wanted) {
    List<String> names = new ArrayList<>(wanted.keySet());
    for (int from = 0; from < names.size(); from += TOP_CHUNK) {
      Map<String, Integer> chunk = new LinkedHashMap<>();
      for (String segment : names.subList(from, Math.min(names.size(), from + TOP_CHUNK))) {
        chunk.put(segment, wanted.get(segment));
      }
      Map<String, LiveFamilyStore.SegmentTop> tops = store.top(board, chunk);
      if (tops == null) {
        return false;
      }
      tops.forEach(
          (segment, top) -> {
            Cursor cursor = cursors.get(segment);
            cursor.read = top.ranked();
            cursor.next = 0;
            cursor.more = top.ranked().size() >= chunk.get(segment);
          });
    }
    return true;
  }

  /**
   * Scores the popped members from their cards: the item's score at {@code now} over the divisor of
   * its largest segment, if it is alive and in the window; offers each to the {@code need} best.
   */
  private void score(
      BoardDefinition board,
      Ordering order,
      Sizes counted,
      Instant now,
      long windowStart,
      int need,
      List<Popped> pending,
      PriorityQueue<BoardEntry> best,
      List<LiveStore.Ranked> gone,
      Set<Long> misplaced) {
    if (pending.isEmpty()) {
      return;
    }
    List<Long> ids = new ArrayList<>(pending.size());
    pending.forEach(p -> ids.add(p.ranked().itemId()));
    Map<Long, ItemCards.Card> cards = published.cards(board, ids);
    for (Popped popped : pending) {
      ItemCards.Card card = cards.get(popped.ranked().itemId());
      if (card == null) {
        gone.add(popped.ranked());
        continue;
      }
      Set<String> segments = LiveFamilies.segments(board, card.labels());
      if (!segments.contains(popped.segment())) {
        misplaced.add(card.itemId()); // its move between sets was lost: placed again
      }
      if (card.createdAtMillis() > now.toEpochMilli()
          || card.createdAtMillis() < windowStart
          || order.key(card.counts(), card.createdAtMillis()) == null) {
        continue;
      }
      double divisor = 1;
      for (String segment : segments) {
        divisor = Math.max(divisor, counted.divisor(segment));
      }
      BoardEntry entry =
          new BoardEntry(
              0,
              board.biz(),
              card.itemId(),
              order.score(card.counts(), card.createdAtMillis(), now) / divisor,
              card.title(),
              card.authorId(),
              Instant.ofEpochMilli(card.createdAtMillis()),
              Item.Counts.of(card.counts()));
      best.add(entry);
      if (best.size() > need) {
        best.poll();
      }
    }
    pending.clear();
  }
}
