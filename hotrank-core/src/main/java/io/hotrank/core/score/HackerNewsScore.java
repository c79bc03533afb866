package io.hotrank.core.score;

import java.time.Instant;
import java.util.Objects;

/*
 * Hacker News ranking: score = (P - 1) / (T + 2)^G.
 *
 * P - 1 discounts the submitter's own implicit vote, so a fresh item with nothing else scores 0
 * and one with no points at all scores below zero. T is the age in hours; the + 2 keeps the
 * denominator at least 2^G, so brand-new items do not get an unbounded boost from dividing by a
 * tiny number. G (gravity) controls how quickly age wins over points: the classic value is 1.8.
 * Because the denominator is a power of age rather than an exponential, old items with many
 * points fall slowly but steadily.
 */
final class HackerNewsScore implements HotScore {

  private final Weights weights;
  private final double gravity;

  HackerNewsScore(Weights weights, double gravity) {
    this.weights = Objects.requireNonNull(weights, "weights");
    if (!(gravity > 0.0) || !Double.isFinite(gravity)) {
      throw new IllegalArgumentException("gravity must be finite and > 0 but was " + gravity);
    }
    this.gravity = gravity;
  }

  @Override
  public double score(Interactions counts, Instant createdAt, Instant now) {
    double points = weights.points(counts);
    double hours = Age.between(createdAt, now).hours();
    return (points - 1.0) / Math.pow(hours + 2.0, gravity);
  }

  @Override
  public Explanation explain(Interactions counts, Instant createdAt, Instant now) {
    return new Explanation(
        "(P - 1) / (T + 2)^G",
        java.util.List.of(
            Explanation.points(weights, counts),
            Explanation.age(createdAt, now),
            new Explanation.Term("G", "gravity", gravity)),
        score(counts, createdAt, now));
  }

  @Override
  public HotScore countingIn(long unit) {
    return new HackerNewsScore(weights.countingIn(unit), gravity);
  }

  @Override
  public String algorithm() {
    return "hacker-news";
  }

  @Override
  public String toString() {
    return "HotScore[hacker-news, gravity=" + gravity + ", " + weights + "]";
  }
}
