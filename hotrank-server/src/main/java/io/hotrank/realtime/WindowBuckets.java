package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What a window board holds of one item, bucket by bucket: the parts of its score. */
public interface WindowBuckets {

  /**
   * A bucket of the window holding some of the item's weighted events; or the completed buckets the
   * board has merged, when it no longer holds them one by one.
   *
   * @param start when the bucket begins
   * @param end when it ends: one bucket length later, or later for merged buckets
   * @param events the item's weighted events in it, in interactions; merged buckets: their sum,
   *     each weighed relative to the last of them
   * @param weight what it weighs in the score at the time asked: 1 without a half-life, else {@code
   *     2^(-age / half-life)}, its age counted in whole buckets back from the current one (merged
   *     buckets: the age of the last of them)
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "WindowBucket")
  record Bucket(Instant start, Instant end, double events, double weight) {}

  /**
   * The buckets of the window at {@code at} that hold events of the item, oldest first, as the
   * board's read merges them: the item's score on the board is the sum of {@code events * weight}
   * over them. The buckets of the window at {@code at} that hold events of the item, oldest first:
   * the item's score on the board is the sum of {@code events * weight} over them.
   *
   * @param segment the segment of a window family's segment board; null for a window board
   * @return null when the board's buckets are not kept per item where this can read them (a segment
   *     board of a window family keeps them inside its family's scripts)
   * @throws org.springframework.dao.DataAccessException if Redis fails
   */
  @Nullable List<Bucket> buckets(
      BoardDefinition board, @Nullable String segment, long itemId, Instant at);

  /**
   * A window board's score from the sum of its buckets: rounded to nine significant digits, as the
   * board rounds it (equal sums carry different floating-point noise).
   */
  static double asServed(double sum) {
    return ScoredEntries.rounded(sum);
  }
}
