package io.hotrank.explain;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.hotrank.core.score.Explanation;
import io.hotrank.realtime.WindowBuckets;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Why an item is where it is on one served version of a board, as the explain endpoint answers it.
 *
 * @param board the board's name
 * @param segment the segment board's segment; null for a board that is one board
 * @param version the served version explained
 * @param computedAt when that version was computed: the instant the score is recomputed at
 * @param item the item
 * @param status {@code listed}, or why it is not: {@code blocked}, {@code held} (review), {@code
 *     not-in-window}, {@code not-in-segment}, {@code capped-by-author} or {@code below-cut}; to a
 *     caller without an operator's token, a block or a hold is {@code not-listed}
 * @param reason the status in words
 * @param rank its rank on the served version; null when not listed
 * @param score the score the served version gives it (listed, or kept below the cut); null when the
 *     version holds no score of it
 * @param cut the last entry of a full board: what an item must beat to be listed; null while the
 *     board has room
 * @param kind the board's type
 * @param algorithm the board's algorithm (its type for a window board or a leaderboard)
 * @param trust which counters it ranks by: {@code trusted} or {@code raw}
 * @param counts each interaction type the board weighs or counts: the raw and trusted counters, the
 *     board's weight and the points they give (weight times the counter ranked by)
 * @param formula a batch or live board's formula, its terms and their score (an item on a second
 *     chance: its age counted from when the chance was given); null for other kinds
 * @param buckets a window board's buckets holding the item's weighted events; null for other kinds,
 *     and for a segment board of a window family (kept inside its family's scripts)
 * @param scale an item's score divided by the size of its largest segment ({@code scale-by}); null
 *     when the board is not scaled
 * @param control the operator's live control of the item on this board; null when none, and for a
 *     block asked without an operator's token
 * @param base the board's score of the item before the control (a window board's: the sum of its
 *     buckets' {@code events * weight}, rounded to nine significant digits as the board rounds it)
 * @param explained {@code base} with the control applied: what the board gives the item at {@code
 *     computedAt} for the counters it holds now
 * @param current whether {@code explained} is the served score (to 1e-9 relative); false when
 *     events arrived since the version was computed, or for an item the version holds no score of
 */
@JsonPropertyOrder({
  "board",
  "segment",
  "version",
  "computedAt",
  "item",
  "status",
  "reason",
  "rank",
  "score",
  "cut",
  "kind",
  "algorithm",
  "trust",
  "counts",
  "formula",
  "buckets",
  "scale",
  "control",
  "base",
  "explained",
  "current"
})
public record ItemExplanation(
    String board,
    @Nullable String segment,
    long version,
    Instant computedAt,
    Item item,
    String status,
    String reason,
    @Nullable Integer rank,
    @Nullable Double score,
    @Nullable Cut cut,
    String kind,
    String algorithm,
    String trust,
    List<Count> counts,
    @Nullable Explanation formula,
    @Nullable List<WindowBuckets.Bucket> buckets,
    @Nullable Scale scale,
    @Nullable Control control,
    double base,
    double explained,
    boolean current) {

  /** The item explained. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "ExplainedItem")
  public record Item(String biz, long id, String title, long authorId, Instant createdAt) {}

  /** The last entry of a full board. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "ExplanationCut")
  public record Cut(int rank, long itemId, double score) {}

  /**
   * One interaction type's part.
   *
   * @param type its name in the API
   * @param raw every interaction counted once
   * @param trusted weighed by their actors
   * @param weight the board's weight of the type (1 for a leaderboard's counter)
   * @param points weight times the counter the board ranks by
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "ExplanationCount")
  public record Count(String type, long raw, double trusted, double weight, double points) {}

  /**
   * How {@code scale-by} divided the score.
   *
   * @param by what segments the board scales by
   * @param divisor {@code log10(10 + n)}, n the interactions of the item's largest segment over the
   *     window as the board's scan counted them, read back from the served score
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "ExplanationScale")
  public record Scale(String by, double divisor) {}

  /**
   * The operator's control.
   *
   * @param action pin, boost, block or second-chance
   * @param position a pin's position
   * @param factor a boost's factor
   * @param expiresAt when it lapses; null when never, and to a caller without an operator's token
   * @param reason why; null to a caller without an operator's token
   * @param actor who set it; null to a caller without an operator's token
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "ExplainedControl")
  public record Control(
      String action,
      @Nullable Integer position,
      @Nullable Double factor,
      @Nullable Instant expiresAt,
      @Nullable String reason,
      @Nullable String actor,
      Instant setAt) {}
}
