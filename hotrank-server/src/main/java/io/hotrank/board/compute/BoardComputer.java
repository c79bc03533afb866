package io.hotrank.board.compute;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.SegmentBy;
import io.hotrank.board.publish.BoardControlStore;
import io.hotrank.core.topn.BoundedTopN;
import io.hotrank.item.CounterPages;
import io.hotrank.item.CounterPages.CounterRow;
import io.hotrank.item.CounterPages.LabelledRow;
import io.hotrank.item.Item;
import io.hotrank.item.ItemCards;
import io.hotrank.job.JobCancelledException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  /** The board order: score desc, then the younger item first, then the larger id first. */
  static final Comparator<Scored> BEST_FIRST =
      Comparator.comparingDouble(Scored::score)
          .reversed()
          .thenComparing(Comparator.comparingLong(Scored::createdAtMillis).reversed())
          .thenComparing(Comparator.comparingLong(Scored::id).reversed());

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

  static final Comparator<Labelled> LABELLED_BEST_FIRST =
      Comparator.comparingDouble(Labelled::score)
          .reversed()
          .thenComparing(Comparator.comparingLong(Labelled::createdAtMillis).reversed())
          .thenComparing(Comparator.comparingLong(Labelled::id).reversed());

  /**
   * The ranked candidates of every segment of a family that has an item in the window, by segment,
   * and how many rows the computation scanned.
   */
  public record FamilyResult(
      Instant computedAt, Map<String, List<BoardEntry>> segments, long scanned) {}

  /**
   * Computes every segment board of a family in one pass: one keyset scan of the window (counters
   * joined with the items' labels), each item scored once and offered to the bounded heap of each
   * of its segments. Memory is the segments' heaps plus a page; work is the rows scanned plus, per
   * row, its segments. Each heap keeps the board's size, one per live control of the family (a
   * segment's own controls are few and met by the reserve, or looked up by the publisher) and the
   * reserve.
   *
   * @throws JobCancelledException if cancelled
   */
  public FamilyResult computeFamily(BoardDefinition board, Instant now, BooleanSupplier cancelled) {
    SegmentBy split = java.util.Objects.requireNonNull(board.segmentBy(), "not segmented");
    int controlled = ControlsApplied.controlledIds(controls.all(board.name()), now).size();
    int keep = board.size() + controlled + ControlsApplied.RESERVE;
    Map<String, BoundedTopN<Labelled>> heaps = new HashMap<>();
    long to = now.toEpochMilli();
    long afterCreated = now.minus(board.window()).toEpochMilli();
    long afterId = 0;
    long scanned = 0;
    while (true) {
      if (cancelled.getAsBoolean()) {
        throw new JobCancelledException(BoardJobs.jobName(board.name()));
      }
      List<LabelledRow> page =
          counters.labelledWindowPage(board.biz(), afterCreated, afterId, to, pageSize);
      for (LabelledRow labelled : page) {
        CounterRow row = labelled.row();
        Labelled scored =
            new Labelled(
                row.itemId(),
                row.createdAtMillis(),
                board.scoreAt(row.counts(), row.createdAtMillis(), now),
                labelled);
        for (String segment : split.segments(labelled.labels())) {
          heaps
              .computeIfAbsent(segment, s -> new BoundedTopN<>(keep, LABELLED_BEST_FIRST))
              .offer(scored);
        }
      }
      scanned += page.size();
      if (page.size() < pageSize) {
        break;
      }
      CounterRow last = page.getLast().row();
      afterCreated = last.createdAtMillis();
      afterId = last.itemId();
    }
    Map<String, List<BoardEntry>> segments = new HashMap<>(heaps.size() * 2);
    heaps.forEach(
        (segment, heap) -> {
          List<Labelled> winners = heap.toSortedList();
          List<BoardEntry> entries = new ArrayList<>(winners.size());
          for (Labelled s : winners) {
            entries.add(
                new BoardEntry(
                    entries.size() + 1,
                    board.biz(),
                    s.id(),
                    s.score(),
                    s.row().title(),
                    s.row().labels().authorId(),
                    Instant.ofEpochMilli(s.createdAtMillis()),
                    Item.Counts.of(s.row().row().counts())));
          }
          segments.put(segment, entries);
        });
    return new FamilyResult(now, segments, scanned);
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
    int controlled = ControlsApplied.controlledIds(controls.all(board.name()), now).size();
    BoundedTopN<Scored> top =
        new BoundedTopN<>(board.size() + controlled + ControlsApplied.RESERVE, BEST_FIRST);
    long to = now.toEpochMilli();
    // Item ids are positive, so the position (window start, 0) admits every row at the start.
    long afterCreated = now.minus(board.window()).toEpochMilli();
    long afterId = 0;
    long scanned = 0;
    while (true) {
      if (cancelled.getAsBoolean()) {
        throw new JobCancelledException(BoardJobs.jobName(board.name()));
      }
      List<CounterRow> page = counters.windowPage(board.biz(), afterCreated, afterId, to, pageSize);
      for (CounterRow row : page) {
        double score = board.scoreAt(row.counts(), row.createdAtMillis(), now);
        top.offer(new Scored(row.itemId(), row.createdAtMillis(), score, row));
      }
      scanned += page.size();
      if (page.size() < pageSize) {
        break;
      }
      CounterRow last = page.getLast();
      afterCreated = last.createdAtMillis();
      afterId = last.itemId();
    }
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
