package io.hotrank.board.compute;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.SegmentBy;
import io.hotrank.board.publish.BoardControlStore;
import io.hotrank.core.topn.BoundedTopN;
import io.hotrank.core.topn.CappedTopN;
import io.hotrank.item.CounterPages;
import io.hotrank.item.CounterPages.CounterRow;
import io.hotrank.item.CounterPages.LabelledRow;
import io.hotrank.item.Item;
import io.hotrank.item.ItemCards;
import io.hotrank.job.JobCancelledException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.springframework.stereotype.Component;

/**
 * Ranks one board: walks its window page by page (keyset pagination over {@link
 * CounterPages#windowPage}), scores every item, keeps the Top-N in a bounded heap and attaches the
 * winners' titles and authors in one query ({@link ItemCards#headings}), which keeps the scan
 * narrow. Memory is O(N + page) whatever the number of items scanned. Thread-safe; holds no state
 * between computations.
 */
@Component
public class BoardComputer {

  /**
   * The board order: highest score first, then the younger item, then the larger id. Written out
   * rather than chained from {@link Comparator#comparingDouble}: a scan compares every row with its
   * heaps' worst, and the chain's four indirect calls per comparison showed as the largest part of
   * a family's scan.
   */
  static final Comparator<Scored> BEST_FIRST =
      (a, b) ->
          bestFirst(a.score(), a.createdAtMillis(), a.id(), b.score(), b.createdAtMillis(), b.id());

  static int bestFirst(
      double scoreA, long createdA, long idA, double scoreB, long createdB, long idB) {
    int byScore = Double.compare(scoreB, scoreA);
    if (byScore != 0) {
      return byScore;
    }
    int byAge = Long.compare(createdB, createdA);
    return byAge != 0 ? byAge : Long.compare(idB, idA);
  }

  private final CounterPages counters;
  private final ItemCards items;
  private final BoardControlStore controls;
  private final int pageSize;

  BoardComputer(
      CounterPages counters,
      ItemCards items,
      BoardControlStore controls,
      BoardProperties properties) {
    this.counters = counters;
    this.items = items;
    this.controls = controls;
    this.pageSize = properties.scanPageSize();
  }

  /** A scanned item and its score. */
  record Scored(long id, long createdAtMillis, double score, CounterRow row) {}

  /** The ranked entries of one computation, and how many rows it scanned. */
  public record Result(Instant computedAt, List<BoardEntry> entries, long scanned) {}

  /** A scanned item of a segmented board, with what it shows: scored once for all its segments. */
  record Labelled(long id, long createdAtMillis, double score, LabelledRow row) {}

  /** {@link #BEST_FIRST} for labelled rows. */
  static final Comparator<Labelled> LABELLED_BEST_FIRST =
      (a, b) ->
          bestFirst(a.score(), a.createdAtMillis(), a.id(), b.score(), b.createdAtMillis(), b.id());

  /**
   * The ranked candidates of every segment of a family that has an item in the window, by segment,
   * and how many rows the computation scanned.
   */
  public record FamilyResult(
      Instant computedAt, Map<String, List<BoardEntry>> segments, long scanned) {}

  /**
   * Computes every segment board of a family in one pass: one keyset scan of the window (counters
   * with the items' labels), each item scored once and offered to the bounded heap of each of its
   * segments. Memory is the segments' heaps plus a page; work is the rows scanned plus, per row,
   * its segments. Each heap keeps the board's size, one per live control of the family (a segment's
   * own controls are few and met by the reserve, or looked up by the publisher) and the reserve;
   * with {@code max-per-author}, at most that many of one author.
   *
   * @throws JobCancelledException if cancelled
   */
  public FamilyResult computeFamily(BoardDefinition board, Instant now, BooleanSupplier cancelled) {
    SegmentBy split = java.util.Objects.requireNonNull(board.segmentBy(), "not segmented");
    int keep = keep(board, now);
    Map<String, Heap> heaps = new HashMap<>();
    java.util.function.Function<String, Heap> newHeap = segment -> heap(board, keep);
    long scanned =
        scan(
            board,
            now,
            cancelled,
            labelled -> {
              Labelled scored = scored(board, labelled, now, 1);
              for (String segment : split.segments(labelled.labels())) {
                heaps.computeIfAbsent(segment, newHeap).offer(scored);
              }
            });
    Map<String, List<Labelled>> winners = new HashMap<>(heaps.size() * 2);
    Set<Long> ids = new HashSet<>();
    heaps.forEach(
        (segment, heap) -> {
          List<Labelled> sorted = heap.sorted();
          winners.put(segment, sorted);
          sorted.forEach(winner -> ids.add(winner.id()));
        });
    throwIfCancelled(board, cancelled);
    Map<Long, ItemCards.Heading> headings = items.headings(board.biz(), ids);
    Map<String, List<BoardEntry>> segments = new HashMap<>(winners.size() * 2);
    winners.forEach((segment, ranked) -> segments.put(segment, entries(board, ranked, headings)));
    return new FamilyResult(now, segments, scanned);
  }

  /**
   * A board that is one board but needs each item's author ({@code max-per-author}) or segments
   * ({@code scale-by}): the labelled scan into one heap. With {@code scale-by}, a first scan adds
   * up each segment's interactions over the window (n), and the second divides each item's score by
   * {@code log10(10 + n)} of its largest segment (an item in no segment: n = 0, unscaled).
   */
  private Result computeLabelled(BoardDefinition board, Instant now, BooleanSupplier cancelled) {
    SegmentBy scale = board.scaleBy();
    Map<String, Long> sizes = new HashMap<>();
    long scanned = 0;
    if (scale != null) {
      scanned +=
          scan(
              board,
              now,
              cancelled,
              labelled -> {
                long n = labelled.row().counts().total();
                for (String segment : scale.segments(labelled.labels())) {
                  sizes.merge(segment, n, Long::sum);
                }
              });
    }
    Heap top = heap(board, keep(board, now));
    scanned +=
        scan(
            board,
            now,
            cancelled,
            labelled -> {
              double divisor = 1;
              if (scale != null) {
                long largest = 0;
                for (String segment : scale.segments(labelled.labels())) {
                  largest = Math.max(largest, sizes.getOrDefault(segment, 0L));
                }
                divisor = Math.log10(10 + largest);
              }
              top.offer(scored(board, labelled, now, divisor));
            });
    List<Labelled> winners = top.sorted();
    Map<Long, ItemCards.Heading> headings =
        items.headings(board.biz(), winners.stream().map(Labelled::id).toList());
    return new Result(now, entries(board, winners, headings), scanned);
  }

  private static Labelled scored(
      BoardDefinition board, LabelledRow labelled, Instant now, double divisor) {
    CounterRow row = labelled.row();
    double score = board.scoreAt(board.ranked(row.counters()), row.createdAtMillis(), now);
    return new Labelled(
        row.itemId(), row.createdAtMillis(), divisor == 1 ? score : score / divisor, labelled);
  }

  /** How many candidates a heap keeps: the size, one per live control, and the reserve. */
  private int keep(BoardDefinition board, Instant now) {
    int controlled = ControlsApplied.controlledIds(controls.all(board.name()), now).size();
    return board.size() + controlled + ControlsApplied.reserve(board);
  }

  /** A heap of ranked candidates: bounded, and capped per author when the board says so. */
  private record Heap(
      java.util.function.Consumer<Labelled> offers,
      java.util.function.Supplier<List<Labelled>> ranks) {

    void offer(Labelled candidate) {
      offers.accept(candidate);
    }

    List<Labelled> sorted() {
      return ranks.get();
    }
  }

  private static Heap heap(BoardDefinition board, int keep) {
    if (board.maxPerAuthor() > 0) {
      CappedTopN<Labelled, Long> capped =
          new CappedTopN<>(
              keep, board.maxPerAuthor(), l -> l.row().labels().authorId(), LABELLED_BEST_FIRST);
      return new Heap(capped::offer, capped::toSortedList);
    }
    BoundedTopN<Labelled> bounded = new BoundedTopN<>(keep, LABELLED_BEST_FIRST);
    return new Heap(bounded::offer, bounded::toSortedList);
  }

  /**
   * One keyset scan of the window with each item's labels, page by page (the next read while this
   * one is ranked); returns the rows.
   */
  private long scan(
      BoardDefinition board,
      Instant now,
      BooleanSupplier cancelled,
      java.util.function.Consumer<LabelledRow> each) {
    long scanned =
        counters.scanLabelledWindow(
            board.biz(),
            now.minus(board.window()).toEpochMilli(),
            now.toEpochMilli(),
            pageSize,
            labels(board),
            cancelled,
            page -> page.forEach(each));
    throwIfCancelled(board, cancelled); // a cancelled scan ends early, without its last pages
    return scanned;
  }

  /**
   * The labels a board's scan reads: its segments', its scaling segments', and the author when
   * capped.
   */
  static Set<CounterPages.Label> labels(BoardDefinition board) {
    Set<CounterPages.Label> labels = EnumSet.noneOf(CounterPages.Label.class);
    if (board.segmentBy() != null) {
      labels.add(board.segmentBy().label());
    }
    if (board.scaleBy() != null) {
      labels.add(board.scaleBy().label());
    }
    if (board.maxPerAuthor() > 0) {
      labels.add(CounterPages.Label.AUTHOR);
    }
    return labels;
  }

  private static void throwIfCancelled(BoardDefinition board, BooleanSupplier cancelled) {
    if (cancelled.getAsBoolean()) {
      throw new JobCancelledException(BoardJobs.jobName(board.name()));
    }
  }

  /** The winners that still exist as entries, with their headings (the scan reads no titles). */
  private static List<BoardEntry> entries(
      BoardDefinition board, List<Labelled> winners, Map<Long, ItemCards.Heading> headings) {
    List<BoardEntry> entries = new ArrayList<>(winners.size());
    for (Labelled s : winners) {
      ItemCards.Heading heading = headings.get(s.id());
      if (heading == null) {
        continue; // deleted between the scan and the headings query
      }
      entries.add(
          new BoardEntry(
              entries.size() + 1,
              board.biz(),
              s.id(),
              s.score(),
              heading.title(),
              heading.authorId(),
              Instant.ofEpochMilli(s.createdAtMillis()),
              Item.Counts.of(s.row().row().counts())));
    }
    return entries;
  }

  /**
   * Computes the board's candidates as of {@code now}: its top {@code size}, plus one per live
   * control so that after the publisher drops blocked items and moves pinned ones the board still
   * holds {@code size} entries, plus {@link ControlsApplied#RESERVE} kept in the snapshot for
   * blocks set before the next computation. Boosted and pinned items the heap does not keep are
   * looked up by the publisher, which applies the controls as they are when it takes its version.
   *
   * @param cancelled polled between scan pages; when true the computation is abandoned
   * @throws JobCancelledException if cancelled
   */
  public Result compute(BoardDefinition board, Instant now, BooleanSupplier cancelled) {
    if (board.maxPerAuthor() > 0 || board.scaleBy() != null) {
      return computeLabelled(board, now, cancelled);
    }
    BoundedTopN<Scored> top = new BoundedTopN<>(keep(board, now), BEST_FIRST);
    long scanned =
        counters.scanWindow(
            board.biz(),
            now.minus(board.window()).toEpochMilli(),
            now.toEpochMilli(),
            pageSize,
            cancelled,
            page -> {
              for (CounterRow row : page) {
                double score =
                    board.scoreAt(board.ranked(row.counters()), row.createdAtMillis(), now);
                top.offer(new Scored(row.itemId(), row.createdAtMillis(), score, row));
              }
            });
    throwIfCancelled(board, cancelled); // a cancelled scan ends early, without its last pages
    return new Result(now, attachHeadings(board, top.toSortedList()), scanned);
  }

  private List<BoardEntry> attachHeadings(BoardDefinition board, List<Scored> winners) {
    Map<Long, ItemCards.Heading> headings =
        items.headings(board.biz(), winners.stream().map(Scored::id).toList());
    List<BoardEntry> entries = new ArrayList<>(winners.size());
    for (Scored s : winners) {
      ItemCards.Heading heading = headings.get(s.id());
      if (heading == null) {
        continue; // deleted between the scan and the headings query
      }
      entries.add(
          new BoardEntry(
              entries.size() + 1,
              board.biz(),
              s.id(),
              s.score(),
              heading.title(),
              heading.authorId(),
              Instant.ofEpochMilli(s.createdAtMillis()),
              Item.Counts.of(s.row().counts())));
    }
    return entries;
  }
}
