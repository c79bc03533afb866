package io.hotrank.item;

import io.hotrank.core.score.InteractionType;
import io.hotrank.core.score.Interactions;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What boards read of the counters table to rank items: the live items of a window page by page,
 * the top items of one counter, and the counters of given items with the fold that wrote them. The
 * table's writes (item creation and deletion, the folds) stay with its owner. Callers own the
 * transactions; thread-safe.
 */
public interface CounterPages {

  /**
   * One counter row: what ranking needs of an item, and nothing more.
   *
   * @param counts the raw counters
   * @param trusted the trusted counters, in thousandths ({@link Counters})
   */
  record CounterRow(long itemId, long createdAtMillis, Interactions counts, Interactions trusted) {

    /** Both counters. */
    public Counters counters() {
      return new Counters(counts, trusted);
    }
  }

  /** A counter row with what a segmented board splits by, read in the same scan. */
  record LabelledRow(CounterRow row, ItemCards.Labels labels) {}

  /**
   * A label a labelled scan reads. One not read is left at its empty value in the row's labels (0,
   * no tags, no attributes): a family by tag reads the tags alone, which costs the database and the
   * scan less than every label of a million rows.
   */
  enum Label {
    AUTHOR,
    TAGS,
    ATTRIBUTES,
    VERSION
  }

  /**
   * {@link #windowPage} with the given labels of each item (author, tags, attributes, version):
   * what a segmented batch board scans, so that one pass fills every segment's board (titles are
   * read for the winners only).
   */
  List<LabelledRow> labelledWindowPage(
      String biz, long afterCreated, long afterId, long toMillis, int limit, Set<Label> labels);

  /** The counters of a live item and the fold that last wrote them (0 before the first). */
  record Counted(Counters counters, long foldNo) {}

  /**
   * One page of the live items of {@code biz} created at or before {@code toMillis}, in
   * (created_at, item_id) order, strictly after the keyset position {@code (afterCreated,
   * afterId)}. Item ids are positive, so the first page of a window starting at {@code from} is the
   * position {@code (from, 0)}; each next page starts after the last row of the previous one.
   */
  List<CounterRow> windowPage(
      String biz, long afterCreated, long afterId, long toMillis, int limit);

  /**
   * Every live item of {@code biz} created in {@code [fromMillis, toMillis]}, page by page of
   * {@code pageSize} in (created_at, item_id) order ({@link #windowPage}), the next page read while
   * {@code each} handles the current one. Once {@code stopped} answers true no further page is
   * read; {@code each} may throw to stop the scan.
   *
   * @return the rows read
   */
  default long scanWindow(
      String biz,
      long fromMillis,
      long toMillis,
      int pageSize,
      BooleanSupplier stopped,
      Consumer<List<CounterRow>> each) {
    return WindowScan.scan(
        (afterCreated, afterId) -> windowPage(biz, afterCreated, afterId, toMillis, pageSize),
        CounterRow::createdAtMillis,
        CounterRow::itemId,
        fromMillis,
        pageSize,
        stopped,
        each);
  }

  /** {@link #scanWindow} over {@link #labelledWindowPage}: each row with the labels asked. */
  default long scanLabelledWindow(
      String biz,
      long fromMillis,
      long toMillis,
      int pageSize,
      Set<Label> labels,
      BooleanSupplier stopped,
      Consumer<List<LabelledRow>> each) {
    return WindowScan.scan(
        (afterCreated, afterId) ->
            labelledWindowPage(biz, afterCreated, afterId, toMillis, pageSize, labels),
        labelled -> labelled.row().createdAtMillis(),
        labelled -> labelled.row().itemId(),
        fromMillis,
        pageSize,
        stopped,
        each);
  }

  /**
   * The live items of {@code biz} with the highest value of one counter, best first (ties: newest
   * first, then highest id), at most {@code limit}: a scan of the biz's counter rows, run on
   * demand.
   */
  List<Map.Entry<Long, Long>> topBy(String biz, InteractionType counter, int limit);

  /** As {@link #topBy}, by the trusted counter (its value in thousandths) when {@code trusted}. */
  List<Map.Entry<Long, Long>> topBy(
      String biz, InteractionType counter, boolean trusted, int limit);

  /**
   * The live items of one author in {@code biz} created at or after {@code fromMillis}, newest
   * first, at most {@code limit}: a scan of the biz's window filtered by author, run on demand (an
   * operator's decision on an author).
   */
  List<Long> authoredSince(String biz, long authorId, long fromMillis, int limit);

  /** The counters of the given live items of one biz, in one query; others are absent. */
  Map<Long, Counted> findAll(String biz, Collection<Long> ids);
}
