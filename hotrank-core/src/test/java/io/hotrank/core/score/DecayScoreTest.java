package io.hotrank.core.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DecayScoreTest {

  private static final Instant NOW = Instant.parse("2024-06-01T12:00:00Z");
  private static final Interactions EIGHTY_LIKES = new Interactions(80, 0, 0, 0, 0, 0);
  private static final HotScore SIX_HOUR_HALF_LIFE =
      HotScore.decay(Weights.likesOnly(), Duration.ofHours(6));

  private static double scoreAtAge(Duration age) {
    return SIX_HOUR_HALF_LIFE.score(EIGHTY_LIKES, NOW.minus(age), NOW);
  }

  @Test
  void score_ageZero_isPoints() {
    // 80 * 2^0 = 80
    assertThat(scoreAtAge(Duration.ZERO)).isCloseTo(80.0, within(1e-9));
  }

  @Test
  void score_oneHalfLife_isHalfThePoints() {
    // 80 * 2^(-6/6) = 40
    assertThat(scoreAtAge(Duration.ofHours(6))).isCloseTo(40.0, within(1e-9));
  }

  @Test
  void score_twoHalfLives_isAQuarterOfThePoints() {
    // 80 * 2^(-12/6) = 80 / 4 = 20
    assertThat(scoreAtAge(Duration.ofHours(12))).isCloseTo(20.0, within(1e-9));
  }

  @Test
  void score_halfAHalfLife_isPointsOverSqrtTwo() {
    // 80 * 2^(-3/6) = 80 / 1.4142135623730951 = 56.568542494923802
    assertThat(scoreAtAge(Duration.ofHours(3))).isCloseTo(56.568542494923802, within(1e-9));
  }

  @Test
  void score_createdAfterNow_treatedAsAgeZero() {
    assertThat(SIX_HOUR_HALF_LIFE.score(EIGHTY_LIKES, NOW.plus(Duration.ofHours(6)), NOW))
        .isCloseTo(80.0, within(1e-9));
  }

  @Test
  void score_subMillisecondHalfLife_usesFractionalMillis() {
    // halfLife = 0.5 ms, age = 1 ms = 2 half-lives -> 80 / 4 = 20
    HotScore score = HotScore.decay(Weights.likesOnly(), Duration.ofNanos(500_000));

    assertThat(score.score(EIGHTY_LIKES, NOW.minusMillis(1), NOW)).isCloseTo(20.0, within(1e-9));
  }

  @Test
  void score_extremeAge_decaysToZeroWithoutOverflow() {
    assertThat(SIX_HOUR_HALF_LIFE.score(EIGHTY_LIKES, Instant.MIN, Instant.MAX)).isZero();
  }

  @Test
  void decay_nonPositiveHalfLife_rejected() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> HotScore.decay(Weights.likesOnly(), Duration.ZERO))
        .withMessageContaining("halfLife");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> HotScore.decay(Weights.likesOnly(), Duration.ofSeconds(-1)));
  }

  @Test
  void decay_nullArguments_rejected() {
    assertThatNullPointerException().isThrownBy(() -> HotScore.decay(null, Duration.ofHours(1)));
    assertThatNullPointerException().isThrownBy(() -> HotScore.decay(Weights.likesOnly(), null));
  }

  @Test
  void algorithm_isDecay() {
    assertThat(SIX_HOUR_HALF_LIFE.algorithm()).isEqualTo("decay");
  }
}
