package io.hotrank.core.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HackerNewsScoreTest {

  private static final Instant NOW = Instant.parse("2024-06-01T12:00:00Z");
  private static final Interactions HUNDRED_AND_ONE_LIKES = new Interactions(101, 0, 0, 0, 0, 0);

  private static double scoreAtAge(HotScore score, Interactions counts, Duration age) {
    return score.score(counts, NOW.minus(age), NOW);
  }

  @Test
  void score_101LikesTenHoursOldGravity1point5_matchesReference() {
    // (101 - 1) / (10 + 2)^1.5 = 100 / (12 * sqrt(12)) = 100 / 41.569219381653055 =
    // 2.4056261216234407
    HotScore score = HotScore.hackerNews(Weights.likesOnly(), 1.5);

    assertThat(scoreAtAge(score, HUNDRED_AND_ONE_LIKES, Duration.ofHours(10)))
        .isCloseTo(2.4056261216234407, within(1e-9));
  }

  @Test
  void score_101LikesTenHoursOldGravity1point8_matchesReference() {
    // 100 / 12^1.8 = 100 / 87.604465232621... = 1.1414943260536290
    HotScore score = HotScore.hackerNews(Weights.likesOnly(), 1.8);

    assertThat(scoreAtAge(score, HUNDRED_AND_ONE_LIKES, Duration.ofHours(10)))
        .isCloseTo(1.1414943260536290, within(1e-9));
  }

  @Test
  void score_weightedPointsAndFractionalHours_matchesReference() {
    // P = 5 likes * 1 + 3 comments * 2 = 11; T = 90 min = 1.5 h; G = 2
    // (11 - 1) / (1.5 + 2)^2 = 10 / 12.25 = 0.81632653061224490
    HotScore score = HotScore.hackerNews(Weights.of(Map.of("like", 1.0, "comment", 2.0)), 2.0);

    assertThat(scoreAtAge(score, new Interactions(5, 0, 3, 0, 0, 0), Duration.ofMinutes(90)))
        .isCloseTo(0.8163265306122449, within(1e-9));
  }

  @Test
  void score_zeroLikes_isNegative() {
    // (0 - 1) / (0 + 2)^1.8 = -1 / 3.4822022531844966 = -0.28717458874925875
    HotScore score = HotScore.hackerNews(Weights.likesOnly(), 1.8);

    assertThat(scoreAtAge(score, Interactions.NONE, Duration.ZERO))
        .isCloseTo(-0.28717458874925875, within(1e-9));
  }

  @Test
  void score_exactlyOnePoint_isZero() {
    HotScore score = HotScore.hackerNews(Weights.likesOnly(), 1.8);

    assertThat(scoreAtAge(score, new Interactions(1, 0, 0, 0, 0, 0), Duration.ofHours(3))).isZero();
  }

  @Test
  void score_createdAfterNow_treatedAsAgeZero() {
    // (101 - 1) / (0 + 2)^1.5 = 100 / 2.8284271247461903 = 35.35533905932738
    HotScore score = HotScore.hackerNews(Weights.likesOnly(), 1.5);

    assertThat(score.score(HUNDRED_AND_ONE_LIKES, NOW.plus(Duration.ofHours(5)), NOW))
        .isCloseTo(35.35533905932738, within(1e-9));
  }

  @Test
  void score_olderItemSamePoints_strictlyLower() {
    HotScore score = HotScore.hackerNews(Weights.likesOnly(), 1.8);

    double previous = Double.POSITIVE_INFINITY;
    for (int minutes = 0; minutes <= 72 * 60; minutes += 30) {
      double current = scoreAtAge(score, HUNDRED_AND_ONE_LIKES, Duration.ofMinutes(minutes));
      assertThat(current).as("age %d min", minutes).isLessThan(previous);
      previous = current;
    }
  }

  @Test
  void score_higherGravity_lowerScoreForTheSamePost() {
    double gentle =
        scoreAtAge(
            HotScore.hackerNews(Weights.likesOnly(), 1.2),
            HUNDRED_AND_ONE_LIKES,
            Duration.ofHours(10));
    double classic =
        scoreAtAge(
            HotScore.hackerNews(Weights.likesOnly(), 1.8),
            HUNDRED_AND_ONE_LIKES,
            Duration.ofHours(10));
    double steep =
        scoreAtAge(
            HotScore.hackerNews(Weights.likesOnly(), 2.5),
            HUNDRED_AND_ONE_LIKES,
            Duration.ofHours(10));

    assertThat(gentle).isGreaterThan(classic);
    assertThat(classic).isGreaterThan(steep);
  }

  @Test
  void score_higherGravity_letsAFresherPostOvertakeAnOlderBetterOne() {
    // old: 201 likes, 20 h; fresh: 51 likes, 2 h.
    // G = 0.5: 200/sqrt(22) = 42.64 vs 50/sqrt(4) = 25.00 -> old ranks first
    // G = 1.8: 200/22^1.8 = 0.7668 vs 50/4^1.8 = 4.1235 -> fresh ranks first
    Interactions old = new Interactions(201, 0, 0, 0, 0, 0);
    Interactions fresh = new Interactions(51, 0, 0, 0, 0, 0);
    HotScore low = HotScore.hackerNews(Weights.likesOnly(), 0.5);
    HotScore high = HotScore.hackerNews(Weights.likesOnly(), 1.8);

    assertThat(scoreAtAge(low, old, Duration.ofHours(20)))
        .isGreaterThan(scoreAtAge(low, fresh, Duration.ofHours(2)));
    assertThat(scoreAtAge(high, old, Duration.ofHours(20)))
        .isLessThan(scoreAtAge(high, fresh, Duration.ofHours(2)));
  }

  @ParameterizedTest
  @ValueSource(
      doubles = {0.0, -0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
  void hackerNews_gravityNotFinitePositive_rejected(double gravity) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> HotScore.hackerNews(Weights.likesOnly(), gravity))
        .withMessageContaining("gravity");
  }

  @Test
  void hackerNews_nullWeights_rejected() {
    assertThatNullPointerException().isThrownBy(() -> HotScore.hackerNews(null, 1.8));
  }

  @Test
  void algorithm_isHackerNews() {
    assertThat(HotScore.hackerNews(Weights.likesOnly(), 1.8).algorithm()).isEqualTo("hacker-news");
  }
}
