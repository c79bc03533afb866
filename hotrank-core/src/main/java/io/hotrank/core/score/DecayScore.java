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
 *
 * That independence gives the rank key. With c the creation time in epoch milliseconds and h the
 * half-life, P * 2^(-(now - c) / h) = 2^(log2(P) + c / h - now / h) for P > 0, so log2(P) + c / h
 * orders positive scores at every instant. A negative P orders the other way round (the smaller
 * magnitude is the higher score) and every P = 0 scores 0, so the key puts them in three bands:
 *
 *   P > 0:  OFFSET + log2(P) + c / h      (> 0, since log2(P) >= -1074 and c >= 0)
 *   P = 0:  0
 *   P < 0:  -(OFFSET + log2(-P) + c / h)  (< 0)
 *
 * The key's magnitude is OFFSET plus about c / h: 8.2e4 with a six-hour half-life today, whose
 * double spacing (1.5e-11) is far below what one millisecond of creation time (4.6e-8) or one
 * point in a million (1.4e-6) moves it; even a one-second half-life keeps a spacing of 2.4e-7 for
 * centuries. The score comes back as 2^(|key| - OFFSET - now / h) with the key's sign, accurate to
 * about the same relative error.
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
  public Explanation explain(Interactions counts, Instant createdAt, Instant now) {
    return new Explanation(
        "P * 2^(-T / H)",
        java.util.List.of(
            Explanation.points(weights, counts),
            Explanation.age(createdAt, now),
            new Explanation.Term("H", "half-life in hours", halfLifeMillis / 3_600_000.0)),
        score(counts, createdAt, now));
  }

  @Override
  public HotScore countingIn(long unit) {
    return new DecayScore(weights.countingIn(unit), halfLife);
  }

  @Override
  public String algorithm() {
    return "decay";
  }

  /** Keeps every band apart: log2 of the smallest positive double is -1074. */
  private static final double OFFSET = 1075.0;

  @Override
  public RankKey rankKey() {
    return new RankKey() {
      @Override
      public double key(Interactions counts, Instant createdAt) {
        double points = weights.points(counts);
        if (points == 0) {
          return 0;
        }
        double created = createdAt.getEpochSecond() * 1_000.0 + createdAt.getNano() / 1_000_000.0;
        double magnitude = OFFSET + Math.log(Math.abs(points)) / LN2 + created / halfLifeMillis;
        return points > 0 ? magnitude : -magnitude;
      }

      @Override
      public double score(double key, Instant now) {
        if (key == 0) {
          return 0;
        }
        double at = now.getEpochSecond() * 1_000.0 + now.getNano() / 1_000_000.0;
        double magnitude = Math.pow(2.0, Math.abs(key) - OFFSET - at / halfLifeMillis);
        return key > 0 ? magnitude : -magnitude;
      }
    };
  }

  private static final double LN2 = Math.log(2.0);

  @Override
  public String toString() {
    return "HotScore[decay, halfLife=" + halfLife + ", " + weights + "]";
  }
}
