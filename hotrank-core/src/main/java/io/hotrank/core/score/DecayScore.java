package io.hotrank.core.score;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/*
 * Exponential decay: score = P * 2^(-T / halfLife).
 *
 * Every half-life the score halves, regardless of how old the item already is, which makes the
 * relative order of two items with fixed points independent of when you look (unlike Hacker News,
 * where the ratio of two scores changes with age). T and halfLife are both in milliseconds as
 * doubles, so sub-millisecond half-lives still work and no integer division truncates.
 */
final class DecayScore implements HotScore {

  private final Weights weights;
  private final Duration halfLife;
  private final double halfLifeMillis;

  DecayScore(Weights weights, Duration halfLife) {
    this.weights = Objects.requireNonNull(weights, "weights");
    Objects.requireNonNull(halfLife, "halfLife");
    if (halfLife.isNegative() || halfLife.isZero()) {
      throw new IllegalArgumentException("halfLife must be positive but was " + halfLife);
    }
    this.halfLife = halfLife;
    this.halfLifeMillis = halfLife.getSeconds() * 1_000.0 + halfLife.getNano() / 1_000_000.0;
  }

  @Override
  public double score(Interactions counts, Instant createdAt, Instant now) {
    double points = weights.points(counts);
    double ageMillis = Age.between(createdAt, now).millis();
    return points * Math.pow(2.0, -ageMillis / halfLifeMillis);
  }

  @Override
  public String algorithm() {
    return "decay";
  }

  @Override
  public String toString() {
    return "HotScore[decay, halfLife=" + halfLife + ", " + weights + "]";
  }
}
