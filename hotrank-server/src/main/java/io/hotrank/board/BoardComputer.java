package io.hotrank.board;

import io.hotrank.core.topn.BoundedTopN;
import io.hotrank.item.Item;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.springframework.stereotype.Component;

/**
 * Ranks one board: scans its window, scores every item, keeps the Top-N in a bounded heap and
 * attaches the winners' details. Memory is O(N) whatever the number of items scanned. Thread-safe;
 * holds no state between computations.
 */
@Component
public class BoardComputer {

  /** The board order: score desc, then the younger item first, then the larger id first. */
  static final Comparator<Scored> BEST_FIRST =
      Comparator.comparingDouble(Scored::score)
          .reversed()
          .thenComparing(Comparator.comparingLong(Scored::createdAtMillis).reversed())
          .thenComparing(Comparator.comparingLong(Scored::id).reversed());

  private final WindowScan scan;
  private final int pageSize;

  BoardComputer(WindowScan scan, BoardProperties properties) {
    this.scan = scan;
    this.pageSize = properties.scanPageSize();
  }

  /** A scanned item and its score. */
  record Scored(long id, long createdAtMillis, double score, WindowScan.Row row) {}

  /** The ranked entries of one computation, and how many rows it scanned. */
  public record Result(Instant computedAt, List<BoardEntry> entries, long scanned) {}

  /**
   * Computes the board as of {@code now}.
   *
   * @param cancelled polled between scan pages; when true the computation is abandoned
   * @throws ComputationAbandonedException if cancelled
   */
  public Result compute(BoardDefinition board, Instant now, BooleanSupplier cancelled) {
    BoundedTopN<Scored> top = new BoundedTopN<>(board.size(), BEST_FIRST);
    long scanned =
        scan.scan(
            board.biz(),
            now.minus(board.window()),
            now,
            pageSize,
            cancelled,
            row ->
                top.offer(
                    new Scored(
                        row.id(),
                        row.createdAtMillis(),
                        board
                            .score()
                            .score(row.counts(), Instant.ofEpochMilli(row.createdAtMillis()), now),
                        row)));
    List<Scored> winners = top.toSortedList();
    Map<Long, WindowScan.Details> details =
        scan.details(board.biz(), winners.stream().map(Scored::id).toList());
    List<BoardEntry> entries = new ArrayList<>(winners.size());
    for (Scored s : winners) {
      WindowScan.Details d = details.get(s.id());
      if (d == null) {
        continue; // deleted between the scan and the details query
      }
      entries.add(
          new BoardEntry(
              entries.size() + 1,
              board.biz(),
              s.id(),
              s.score(),
              d.title(),
              d.authorId(),
              Instant.ofEpochMilli(s.createdAtMillis()),
              Item.Counts.of(s.row().counts())));
    }
    return new Result(now, entries, scanned);
  }
}
