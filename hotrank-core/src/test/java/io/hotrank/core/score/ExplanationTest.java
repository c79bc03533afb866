package io.hotrank.core.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Each formula's explanation: its terms, put into the formula as written, give the score, for
 * random counts, ages and weights, in whole interactions and in thousandths.
 */
class ExplanationTest {

  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  private static final Weights WEIGHTS =
      Weights.of(Map.of("like", 1.0, "view", 0.01, "comment", 3.0, "share", 5.0, "dislike", -2.0));

  private static Interactions random(Random random, long unit) {
    return new Interactions(
        random.nextLong(0, 500) * unit + random.nextLong(0, unit),
        random.nextLong(0, 10_000) * unit,
        random.nextLong(0, 50) * unit,
        random.nextLong(0, 20) * unit,
        random.nextLong(0, 20) * unit,
        random.nextLong(0, 30) * unit + random.nextLong(0, unit));
  }

  private static Instant randomCreation(Random random) {
    // Up to three days old, and sometimes a minute in the future (scored at age 0).
    return NOW.minusMillis(random.nextLong(-60_000, 3 * 86_400_000L));
  }

  @Test
  void hackerNewsTermsGiveTheScore() {
    Random random = new Random(43);
    for (long unit : new long[] {1, 1000}) {
      HotScore score = HotScore.hackerNews(WEIGHTS, 1.8).countingIn(unit);
      for (int i = 0; i < 500; i++) {
        Interactions counts = random(random, unit);
        Instant created = randomCreation(random);
        Explanation e = score.explain(counts, created, NOW);
        double p = e.value("P");
        double t = e.value("T");
        assertThat(e.formula()).isEqualTo("(P - 1) / (T + 2)^G");
        assertThat(e.value("G")).isEqualTo(1.8);
        assertThat(p).isCloseTo(WEIGHTS.points(counts) / unit, within(1e-9 * Math.abs(p) + 1e-12));
        assertThat(t).isEqualTo(Math.max(0, Duration.between(created, NOW).toMillis()) / 3.6e6);
        assertThat(e.score()).isEqualTo(score.score(counts, created, NOW));
        assertThat((p - 1) / Math.pow(t + 2, 1.8))
            .isCloseTo(e.score(), within(1e-9 * Math.abs(e.score()) + 1e-15));
      }
    }
  }

  @Test
  void decayTermsGiveTheScore() {
    Random random = new Random(44);
    for (long unit : new long[] {1, 1000}) {
      HotScore score = HotScore.decay(WEIGHTS, Duration.ofMinutes(90)).countingIn(unit);
      for (int i = 0; i < 500; i++) {
        Interactions counts = random(random, unit);
        Instant created = randomCreation(random);
        Explanation e = score.explain(counts, created, NOW);
        assertThat(e.formula()).isEqualTo("P * 2^(-T / H)");
        assertThat(e.value("H")).isEqualTo(1.5);
        double value = e.value("P") * Math.pow(2, -e.value("T") / e.value("H"));
        assertThat(value).isCloseTo(e.score(), within(1e-9 * Math.abs(e.score()) + 1e-15));
        assertThat(e.score()).isEqualTo(score.score(counts, created, NOW));
      }
    }
  }

  @Test
  void redditTermsGiveTheScore() {
    Random random = new Random(45);
    for (long unit : new long[] {1, 1000}) {
      HotScore score = HotScore.reddit(WEIGHTS).countingIn(unit);
      for (int i = 0; i < 500; i++) {
        Interactions counts = random(random, unit);
        Instant created = randomCreation(random);
        Explanation e = score.explain(counts, created, NOW);
        double x = e.value("X");
        double value =
            Math.round(
                    (Math.signum(x) * Math.log10(Math.max(Math.abs(x), 1)) + e.value("S") / 45000)
                        * 1e7)
                / 1e7;
        assertThat(value).isEqualTo(e.score());
        assertThat(e.value("S")).isEqualTo(created.getEpochSecond() - 1134028003L);
        assertThat(e.score()).isEqualTo(score.score(counts, created, NOW));
      }
    }
  }

  @Test
  void anUnknownTermIsRefused() {
    Explanation e =
        HotScore.hackerNews(Weights.likesOnly(), 1.5).explain(Interactions.NONE, NOW, NOW);
    assertThatIllegalArgumentException().isThrownBy(() -> e.value("Q")).withMessageContaining("Q");
    assertThat(e.score()).isEqualTo(-1 / Math.pow(2, 1.5));
  }
}
