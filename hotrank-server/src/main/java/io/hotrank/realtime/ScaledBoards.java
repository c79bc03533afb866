package io.hotrank.realtime;

import static io.hotrank.realtime.LiveBoards.CLOCK_TOLERANCE;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.SegmentBy;
import io.hotrank.ingest.Fold;
import io.hotrank.item.CounterPages;
import io.hotrank.item.ItemCards;
import io.hotrank.realtime.LiveFamilies.Ordering;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
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
 * LiveFamilies#UNSEGMENTED}), and each look merges the sets best scaled first ({@link
 * ThresholdMerge}), scoring the members it pops exactly from their cards.
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

    /** An item's divisor: its largest segment's. */
    double divisor(Set<String> segments) {
      double divisor = 1;
      for (String segment : segments) {
        divisor = Math.max(divisor, divisor(segment));
      }
      return divisor;
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
    int need = board.size() + controls + ControlsApplied.reserve(board);
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

  /**
   * A look's sets: the segments' sets in Redis, scored at {@code now} from the items' cards. Items
   * found deleted, or in a set their labels left, are noted, to be removed or placed again.
   */
  private final class LiveSets implements ThresholdMerge.Sets<LiveStore.Ranked> {
    final BoardDefinition board;
    final Ordering order;
    final Sizes counted;
    final Instant now;
    final long windowStart;
    final List<LiveStore.Ranked> gone = new ArrayList<>();
    final Set<Long> misplaced = new HashSet<>();

    LiveSets(BoardDefinition board, Ordering order, Sizes counted, Instant now) {
      this.board = board;
      this.order = order;
      this.counted = counted;
      this.now = now;
      this.windowStart = order.windowStart(now);
    }

    @Override
    public @Nullable Map<String, List<LiveStore.Ranked>> top(Map<String, Integer> wanted) {
      Map<String, List<LiveStore.Ranked>> read = new LinkedHashMap<>();
      List<String> names = new ArrayList<>(wanted.keySet());
      for (int from = 0; from < names.size(); from += TOP_CHUNK) {
        Map<String, Integer> chunk = new LinkedHashMap<>();
        for (String segment : names.subList(from, Math.min(names.size(), from + TOP_CHUNK))) {
          chunk.put(segment, wanted.get(segment));
        }
        Map<String, LiveFamilyStore.SegmentTop> tops = store.top(board, chunk);
        if (tops == null) {
          return null;
        }
        tops.forEach((segment, top) -> read.put(segment, top.ranked()));
      }
      return read;
    }

    @Override
    public long itemId(LiveStore.Ranked member) {
      return member.itemId();
    }

    @Override
    public double score(LiveStore.Ranked member) {
      return order.scoreOfKey(member.key(), now);
    }

    /** The set orders equal keys as the board orders equal scores: younger, then the larger id. */
    @Override
    public boolean ranksAhead(BoardEntry entry, LiveStore.Ranked member) {
      long created = entry.createdAt().toEpochMilli();
      return created > member.createdAtMillis()
          || (created == member.createdAtMillis() && entry.itemId() > member.itemId());
    }

    /**
     * The item's score at {@code now} over the divisor of its largest segment, if it is alive and
     * in the window.
     */
    @Override
    public void score(
        List<ThresholdMerge.Popped<LiveStore.Ranked>> popped, Consumer<BoardEntry> offer) {
      List<Long> ids = new ArrayList<>(popped.size());
      popped.forEach(p -> ids.add(p.member().itemId()));
      Map<Long, ItemCards.Card> cards = published.cards(board, ids);
      for (ThresholdMerge.Popped<LiveStore.Ranked> p : popped) {
        ItemCards.Card card = cards.get(p.member().itemId());
        if (card == null) {
          gone.add(p.member());
          continue;
        }
        Set<String> segments = LiveFamilies.segments(board, card.labels());
        if (!segments.contains(p.segment())) {
          misplaced.add(card.itemId()); // its move between sets was lost: placed again
        }
        if (card.createdAtMillis() > now.toEpochMilli()
            || card.createdAtMillis() < windowStart
            || order.key(board.ranked(card.counters()), card.createdAtMillis()) == null) {
          continue;
        }
        double score = order.score(board.ranked(card.counters()), card.createdAtMillis(), now);
        offer.accept(LiveBoards.entry(board, card, score / counted.divisor(segments)));
      }
    }
  }

  private @Nullable List<BoardEntry> merge(
      BoardDefinition board, Ordering order, Sizes counted, Instant now, int need) {
    Map<String, Double> divisors = new LinkedHashMap<>();
    for (String segment : store.segments(board)) {
      divisors.put(segment, counted.divisor(segment));
    }
    LiveSets live = new LiveSets(board, order, counted, now);
    List<BoardEntry> merged = new ThresholdMerge<>(live).merge(divisors, need, sets.keep(board));
    if (merged == null) {
      return null;
    }
    if (!live.gone.isEmpty()) {
      sets.remove(board, live.gone);
    }
    live.misplaced.forEach(id -> sets.place(board, id, null));
    return merged;
  }
}
