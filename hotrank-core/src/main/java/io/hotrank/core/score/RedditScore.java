package io.hotrank.core.score;

import java.time.Instant;
import java.util.Objects;

/*
 * Reddit "hot" ranking, as in the formerly open-source reddit code base:
 *
 *   x     = ups - downs
 *   order = log10(max(|x|, 1))
 *   sign  = signum(x)
 *   secs  = createdAt (epoch seconds) - 1134028003
 *   score = round(sign * order + secs / 45000, 7)
 *
 * The log makes the first 10 votes count as much as the next 90. Instead of decaying with age,
 * the score grows with creation time: 45000 seconds (12.5 hours) newer is worth as much as ten
 * times the net votes, so a score never needs recomputing as time passes, only when votes change.
 * 1134028003 is an arbitrary epoch (December 2005) that keeps the time term small.
 *
 * Here ups are the weighted non-dislike interactions and downs the raw dislike count.
 */
final class RedditScore implements HotScore {

  private static final long EPOCH_SECONDS = 1134028003L;
  private static final double SECONDS_PER_ORDER = 45000.0;
  private static final double SEVEN_PLACES = 1e7;

  private final Weights weights;

  RedditScore(Weights weights) {
    this.weights = Objects.requireNonNull(weights, "weights");
  }

  @Override
  public double score(Interactions counts, Instant createdAt, Instant now) {
    Objects.requireNonNull(now, "now");
    // Dislikes count in the weights' unit too; dividing by 1 leaves them exact.
    double x = weights.upvotes(counts) - (double) counts.dislike() / weights.unit();
    double order = Math.log10(Math.max(Math.abs(x), 1.0));
    double sign = Math.signum(x);
    long seconds = createdAt.getEpochSecond() - EPOCH_SECONDS;
    double raw = sign * order + seconds / SECONDS_PER_ORDER;
    // The reference rounds to 7 places so that scores compare stably across machines.
    // Math.round(v * 1e7) / 1e7 rounds halves toward positive infinity and can differ from the
    // reference's Python round(v, 7) by one unit in the seventh place when v is (almost)
    // exactly halfway; that is far below what one second of creation time is worth (2.2e-5).
    // Non-finite values (possible only with absurd weights) are returned as is because
    // Math.round would silently clamp them to Long.MAX_VALUE or 0.
    if (!Double.isFinite(raw)) {
      return raw;
    }
    return Math.round(raw * SEVEN_PLACES) / SEVEN_PLACES;
  }

  @Override
  public Explanation explain(Interactions counts, Instant createdAt, Instant now) {
    return new Explanation(
        "round7(sign(X) * log10(max(|X|, 1)) + S / 45000)",
        java.util.List.of(
            new Explanation.Term(
                "X",
                "net votes: the weighted interactions but dislikes, less the dislikes",
                weights.upvotes(counts) - (double) counts.dislike() / weights.unit()),
            new Explanation.Term(
                "S",
                "the creation time in seconds after 2005-12-08T07:46:43Z",
                createdAt.getEpochSecond() - EPOCH_SECONDS)),
        score(counts, createdAt, now));
  }

  @Override
  public HotScore countingIn(long unit) {
    return new RedditScore(weights.countingIn(unit));
  }

  @Override
  public String algorithm() {
    return "reddit";
  }

  /** The score itself: it depends on the votes and the creation time only. */
  @Override
  public RankKey rankKey() {
    return new RankKey() {
      @Override
      public double key(Interactions counts, Instant createdAt) {
        return RedditScore.this.score(counts, createdAt, createdAt);
      }

      @Override
      public double score(double key, Instant now) {
        return key;
      }
    };
  }

  @Override
  public String toString() {
    return "HotScore[reddit, " + weights + "]";
  }
}
