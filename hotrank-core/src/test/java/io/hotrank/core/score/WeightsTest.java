package io.hotrank.core.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WeightsTest {

  private static final Weights MIXED =
      Weights.of(
          Map.of(
              "like", 1.0, "view", 0.1, "comment", 2.0, "share", 3.0, "collect", 4.0, "dislike",
              -5.0));
  private static final Interactions COUNTS = new Interactions(10, 100, 3, 2, 1, 4);

  @Test
  void of_unknownKey_rejectedNamingKeyAndListingValidOnes() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Weights.of(Map.of("likes", 1.0)))
        .withMessageContaining("'likes'")
        .withMessageContaining("like, view, comment, share, collect, dislike");
  }

  @Test
  void of_nullKey_rejectedAsUnknown() {
    Map<String, Double> withNullKey = new HashMap<>();
    withNullKey.put(null, 1.0);

    assertThatIllegalArgumentException()
        .isThrownBy(() -> Weights.of(withNullKey))
        .withMessageContaining("'null'");
  }

  @Test
  void of_nonFiniteWeight_rejected() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Weights.of(Map.of("like", Double.NaN)))
        .withMessageContaining("like");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Weights.of(Map.of("view", Double.POSITIVE_INFINITY)));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Weights.of(Map.of("share", Double.NEGATIVE_INFINITY)));
  }

  @Test
  void of_nullValue_rejected() {
    Map<String, Double> withNullValue = new HashMap<>();
    withNullValue.put("like", null);

    assertThatNullPointerException().isThrownBy(() -> Weights.of(withNullValue));
  }

  @Test
  void of_laterChangesToTheMap_haveNoEffect() {
    Map<String, Double> source = new HashMap<>(Map.of("like", 1.0));
    Weights weights = Weights.of(source);

    source.put("like", 7.0);

    assertThat(weights.weight(InteractionType.LIKE)).isEqualTo(1.0);
  }

  @Test
  void weight_unlistedType_isZero() {
    Weights weights = Weights.of(Map.of("comment", 2.5));

    assertThat(weights.weight(InteractionType.COMMENT)).isEqualTo(2.5);
    assertThat(weights.weight(InteractionType.LIKE)).isZero();
    assertThat(weights.weight(InteractionType.DISLIKE)).isZero();
  }

  @Test
  void points_sumsWeightTimesCountOverAllSixTypes() {
    // 1*10 + 0.1*100 + 2*3 + 3*2 + 4*1 + (-5)*4 = 10 + 10 + 6 + 6 + 4 - 20 = 16
    assertThat(MIXED.points(COUNTS)).isCloseTo(16.0, within(1e-9));
  }

  @Test
  void upvotes_sumsEverythingButDislike() {
    // 1*10 + 0.1*100 + 2*3 + 3*2 + 4*1 = 36
    assertThat(MIXED.upvotes(COUNTS)).isCloseTo(36.0, within(1e-9));
  }

  @Test
  void points_noInteractions_isZero() {
    assertThat(MIXED.points(Interactions.NONE)).isZero();
    assertThat(MIXED.upvotes(Interactions.NONE)).isZero();
  }

  @Test
  void likesOnly_countsLikesAndNothingElse() {
    Weights likesOnly = Weights.likesOnly();

    assertThat(likesOnly.weight(InteractionType.LIKE)).isEqualTo(1.0);
    assertThat(likesOnly.points(new Interactions(7, 100, 100, 100, 100, 100))).isEqualTo(7.0);
    assertThat(likesOnly).isEqualTo(Weights.of(Map.of("like", 1.0)));
  }

  @Test
  void equals_sameWeights_equalWithSameHashCode() {
    Weights a = Weights.of(Map.of("like", 1.0, "view", 0.0));
    Weights b = Weights.of(Map.of("like", 1.0, "dislike", -0.0));

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(Weights.of(Map.of("like", 2.0)));
  }

  @Test
  void toString_listsEveryWeightByWireName() {
    assertThat(Weights.likesOnly().toString())
        .isEqualTo("Weights{like=1.0, view=0.0, comment=0.0, share=0.0, collect=0.0, dislike=0.0}");
  }

  @Test
  void countingIn_thousandths_givesThePointsOfWholeCounts() {
    Interactions thousandths = new Interactions(10_000, 100_000, 3_000, 2_000, 1_000, 4_000);
    Weights perThousand = MIXED.countingIn(1000);

    assertThat(perThousand.points(thousandths)).isEqualTo(MIXED.points(COUNTS));
    assertThat(perThousand.upvotes(thousandths)).isEqualTo(MIXED.upvotes(COUNTS));
    assertThat(perThousand.points(new Interactions(200, 0, 0, 0, 0, 0))).isEqualTo(0.2);
    assertThat(perThousand.unit()).isEqualTo(1000);
    assertThat(perThousand)
        .isNotEqualTo(MIXED)
        .hasToString(MIXED.toString().replace("}", ", unit=1/1000}"));
    assertThat(MIXED.unit()).isEqualTo(1);
  }

  @Test
  void countingIn_belowOne_rejected() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> MIXED.countingIn(0))
        .withMessageContaining("unit must be >= 1");
  }
}
