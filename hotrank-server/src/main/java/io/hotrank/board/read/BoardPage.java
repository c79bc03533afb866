package io.hotrank.board.read;

import io.hotrank.item.Item;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A page of a board as the read answers it, for the API document only: the answer itself is
 * rendered once per version ({@link io.hotrank.board.BoardSnapshot}) or per cursor page ({@link
 * HotPages}), not from this record. {@code OpenApiConformanceTest} checks the two agree.
 *
 * @param segment the segment board's segment; absent for a board that is one board
 * @param total the entries of the version
 * @param nextCursor the next page's cursor, on a page read with {@code cursor} or a limit below the
 *     board's size when more follow; null or absent otherwise
 */
@Schema(
    name = "BoardPage",
    requiredProperties = {"board", "version", "computedAt", "total", "items"})
record BoardPage(
    String board,
    @Nullable String segment,
    long version,
    Instant computedAt,
    int total,
    List<Entry> items,
    @Nullable String nextCursor) {

  /**
   * One entry.
   *
   * @param control the operator's control that shaped it; absent when none did
   */
  @Schema(
      name = "BoardPageEntry",
      requiredProperties = {
        "rank",
        "biz",
        "itemId",
        "score",
        "title",
        "authorId",
        "createdAt",
        "counts"
      })
  record Entry(
      int rank,
      String biz,
      long itemId,
      double score,
      String title,
      long authorId,
      Instant createdAt,
      Item.Counts counts,
      @Nullable Control control) {}

  /**
   * How a control shaped an entry.
   *
   * @param position a pin's asked position; absent otherwise
   * @param factor a boost's factor; absent otherwise
   * @param baseScore the board's score of the item before the control
   */
  @Schema(
      name = "BoardPageControl",
      requiredProperties = {"action", "baseScore"})
  record Control(
      @Schema(allowableValues = {"pin", "boost", "second-chance"}) String action,
      @Nullable Integer position,
      @Nullable Double factor,
      double baseScore) {}
}
