package io.hotrank.core.score;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A hotness formula: turns an item's interaction counts and age into a number where higher means
 * hotter, so that items can be ranked by descending score.
 *
 * <p>Scores from different algorithms (or the same algorithm with different parameters) are not
 * comparable with each other. All implementations returned by the factories below are immutable and
 * safe to use from any number of threads.
 */
public interface HotScore {

  /**
   * Scores one item.
   *
   * @param counts the item's interaction counts
   * @param createdAt when the item was created; a time after {@code now} is treated as age zero by
   *     the algorithms that use age
   * @param now the moment the score is computed for
   * @return the score, higher is hotter
   * @throws NullPointerException if any argument is {@code null}
   */
  double score(Interactions counts, Instant createdAt, Instant now);

  /**
   * Names the formula, for example {@code "hacker-news"}.
   *
   * @return a stable, lower-case identifier of the algorithm (not of its parameters)
   */
  String algorithm();

  /**
   * The parts of {@link #score}: the formula, its terms' values for this item at {@code now}, and
   * the score they give, equal to {@code score(counts, createdAt, now)}.
   *
   * @param counts the item's interaction counts
   * @param createdAt when the item was created
   * @param now the moment the score is computed for
   * @return the explanation
   */
  Explanation explain(Interactions counts, Instant createdAt, Instant now);

  /**
   * The time-invariant order of this formula, for formulas whose ranking of two items never changes
   * with the reading time; null for one whose ranking does (Hacker News: an older item with more
   * points falls behind a younger one as both age).
   *
   * @return the order, or null
   */
  default @Nullable RankKey rankKey() {
    return null;
  }

  /**
   * The same formula over counts given in {@code 1/unit} parts (see {@link Weights#countingIn}):
   * counts of {@code unit} per interaction score as counts of one do here.
   *
   * @param unit parts per interaction, at least 1
   * @return the formula for such counts
   */
  HotScore countingIn(long unit);

  /**
   * The Hacker News formula: {@code (P - 1) / (T + 2)^G}, where P is {@link
   * Weights#points(Interactions)}, T is the age in hours (as a double, clamped at zero) and G the
   * gravity. An item with fewer than one point scores below zero.
   *
   * @param weights how interactions turn into points
   * @param gravity how fast age pulls the score down; larger is faster
   * @return the scorer, whose {@link #algorithm()} is {@code "hacker-news"}
   * @throws NullPointerException if {@code weights} is {@code null}
   * @throws IllegalArgumentException if {@code gravity} is not a finite number greater than zero
   */
  static HotScore hackerNews(Weights weights, double gravity) {
    return new HackerNewsScore(weights, gravity);
  }

  /**
   * The Reddit "hot" formula: {@code round7(sign(x) * log10(max(|x|, 1)) + seconds / 45000)}, where
   * x is {@link Weights#upvotes(Interactions)} minus the raw dislike count, seconds is the creation
   * time in epoch seconds minus 1134028003, and {@code round7} rounds half up to seven decimal
   * places. The score ignores {@code now}: it grows with creation time instead of decaying with
   * age.
   *
   * @param weights how non-dislike interactions turn into up-votes
   * @return the scorer, whose {@link #algorithm()} is {@code "reddit"}
   * @throws NullPointerException if {@code weights} is {@code null}
   */
  static HotScore reddit(Weights weights) {
    return new RedditScore(weights);
  }

  /**
   * Exponential decay: {@code P * 2^(-T / halfLife)}, where P is {@link
   * Weights#points(Interactions)} and T the age (clamped at zero), so the score halves every {@code
   * halfLife}.
   *
   * @param weights how interactions turn into points
   * @param halfLife the age at which the score has dropped to half of P
   * @return the scorer, whose {@link #algorithm()} is {@code "decay"}
   * @throws NullPointerException if an argument is {@code null}
   * @throws IllegalArgumentException if {@code halfLife} is zero or negative
   */
  static HotScore decay(Weights weights, Duration halfLife) {
    return new DecayScore(weights, halfLife);
  }
}
