package io.hotrank.core.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedditScoreTest {

  /** The reference implementation's epoch: 2005-12-08T07:46:43Z. */
  private static final long REDDIT_EPOCH = 1134028003L;

  private static final Instant ANY_NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final HotScore LIKES = HotScore.reddit(Weights.likesOnly());

  private static Interactions votes(long up, long down) {
    return new Interactions(up, 0, 0, 0, 0, down);
  }

  private static Instant epochPlus(long seconds) {
    return Instant.ofEpochSecond(REDDIT_EPOCH + seconds);
  }

  @Test
  void score_noVotesAtRedditEpoch_isZero() {
    // x = 0 -> order = log10(1) = 0, sign = 0; seconds = 0 -> 0 + 0 = 0.0
    assertThat(LIKES.score(Interactions.NONE, epochPlus(0), ANY_NOW)).isEqualTo(0.0);
  }

  @Test
  void score_tenUpvotes45000SecondsAfterEpoch_isTwo() {
    // x = 10 -> order = log10(10) = 1, sign = 1; seconds = 45000 -> 45000 / 45000 = 1; 1 + 1 = 2.0
    assertThat(LIKES.score(votes(10, 0), epochPlus(45000), ANY_NOW)).isCloseTo(2.0, within(1e-9));
  }

  @Test
  void score_moreDownThanUp_hasNegativeSign() {
    // x = 1 - 11 = -10 -> order = 1, sign = -1; seconds = 0 -> -1.0
    assertThat(LIKES.score(votes(1, 11), epochPlus(0), ANY_NOW)).isCloseTo(-1.0, within(1e-9));
  }

  @Test
  void score_netOneAndNetZero_bothHaveOrderZero() {
    // x = 1: log10(max(1, 1)) = 0; x = 0: log10(max(0, 1)) = 0; x = -1: log10(1) = 0
    // so all three score exactly the time term: 90000 / 45000 = 2.0
    assertThat(LIKES.score(votes(1, 0), epochPlus(90000), ANY_NOW)).isEqualTo(2.0);
    assertThat(LIKES.score(votes(0, 0), epochPlus(90000), ANY_NOW)).isEqualTo(2.0);
    assertThat(LIKES.score(votes(3, 4), epochPlus(90000), ANY_NOW)).isEqualTo(2.0);
  }

  @Test
  void score_timeTerm_roundedToSevenDecimalPlaces() {
    // 1 / 45000 = 0.0000222222...  -> 0.0000222 (rounds down)
    // 3 / 45000 = 0.0000666666...  -> 0.0000667 (rounds up)
    // 45001 / 45000 = 1.0000222222... -> 1.0000222
    assertThat(LIKES.score(Interactions.NONE, epochPlus(1), ANY_NOW)).isEqualTo(0.0000222);
    assertThat(LIKES.score(Interactions.NONE, epochPlus(3), ANY_NOW)).isEqualTo(0.0000667);
    assertThat(LIKES.score(Interactions.NONE, epochPlus(45001), ANY_NOW)).isEqualTo(1.0000222);
  }

  @Test
  void score_newYear2024With100Upvotes_matchesReference() {
    // createdAt 2024-01-01T00:00:00Z = epoch 1704067200
    // seconds = 1704067200 - 1134028003 = 570039197
    // 570039197 / 45000 = 12667 + 24197/45000 = 12667.53771111111...
    // order = log10(100) = 2 -> 12669.53771111111... -> 7 places: 12669.5377111
    Instant createdAt = Instant.parse("2024-01-01T00:00:00Z");

    assertThat(LIKES.score(votes(100, 0), createdAt, ANY_NOW))
        .isCloseTo(12669.5377111, within(1e-9));
  }

  @Test
  void score_newYear2024With100NetDownvotes_matchesReference() {
    // x = 0 - 100 -> sign -1, order 2: -2 + 12667.53771111111... = 12665.53771111111... ->
    // 12665.5377111
    Instant createdAt = Instant.parse("2024-01-01T00:00:00Z");

    assertThat(LIKES.score(votes(0, 100), createdAt, ANY_NOW))
        .isCloseTo(12665.5377111, within(1e-9));
  }

  @Test
  void score_weightedUpvotesMinusRawDislikes() {
    // up = 4 likes * 1 + 3 comments * 2 + 1000 views * 0 = 10; down = 5 dislikes (dislike weight
    // is not applied); x = 10 - 5 = 5 -> order = log10(5) = 0.69897000433601880..., sign = 1
    // seconds = 0 -> 0.6989700043... -> 7 places: 0.6989700
    HotScore score =
        HotScore.reddit(Weights.of(Map.of("like", 1.0, "comment", 2.0, "dislike", -100.0)));

    assertThat(score.score(new Interactions(4, 1000, 3, 0, 0, 5), epochPlus(0), ANY_NOW))
        .isCloseTo(0.6989700, within(1e-9));
  }

  @Test
  void score_beforeRedditEpoch_timeTermNegative() {
    // seconds = -45000 -> -1; x = 100 -> +2; total 1.0
    assertThat(LIKES.score(votes(100, 0), epochPlus(-45000), ANY_NOW)).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void score_doesNotDependOnNow() {
    Instant createdAt = Instant.parse("2024-01-01T00:00:00Z");

    double early = LIKES.score(votes(42, 3), createdAt, createdAt);
    double late = LIKES.score(votes(42, 3), createdAt, createdAt.plusSeconds(10_000_000));
    double beforeCreation = LIKES.score(votes(42, 3), createdAt, createdAt.minusSeconds(3600));

    assertThat(late).isEqualTo(early);
    assertThat(beforeCreation).isEqualTo(early);
  }

  @Test
  void score_nullNow_rejectedEvenThoughUnused() {
    assertThatNullPointerException()
        .isThrownBy(() -> LIKES.score(Interactions.NONE, epochPlus(0), null));
  }

  @Test
  void reddit_nullWeights_rejected() {
    assertThatNullPointerException().isThrownBy(() -> HotScore.reddit(null));
  }

  @Test
  void algorithm_isReddit() {
    assertThat(LIKES.algorithm()).isEqualTo("reddit");
  }

  @Test
  void countingIn_thousandths_scoresAsWholeCounts_dislikesIncluded() {
    HotScore whole = HotScore.reddit(Weights.of(Map.of("like", 1.0, "view", 0.5)));
    HotScore parts = whole.countingIn(1000);
    Instant created = Instant.parse("2026-01-01T00:00:00Z");

    assertThat(parts.score(new Interactions(40_000, 8_000, 0, 0, 0, 3_000), created, created))
        .isEqualTo(whole.score(new Interactions(40, 8, 0, 0, 0, 3), created, created));
    // A like weighing a fifth: 5 of them are one vote.
    assertThat(parts.score(new Interactions(5 * 200, 0, 0, 0, 0, 0), created, created))
        .isEqualTo(whole.score(new Interactions(1, 0, 0, 0, 0, 0), created, created));
  }
}
