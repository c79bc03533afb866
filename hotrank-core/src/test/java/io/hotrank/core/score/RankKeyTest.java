package io.hotrank.core.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RankKeyTest {

  private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");

  /** Likes count up, dislikes down, so that P takes every sign. */
  private static final Weights SIGNED =
      Weights.of(Map.of("like", 1.0, "dislike", -2.0, "view", 0.05));

  private record Item(Interactions counts, Instant createdAt) {}

  private static List<Item> randomItems(SplittableRandom random, int n) {
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Interactions counts =
          new Interactions(
              random.nextInt(0, 50), random.nextInt(0, 200), 0, 0, 0, random.nextInt(0, 10));
      items.add(new Item(counts, T0.plusMillis(random.nextLong(0, Duration.ofDays(3).toMillis()))));
    }
    return items;
  }

  @ParameterizedTest
  @ValueSource(strings = {"reddit", "decay-6h", "decay-1s", "decay-30d"})
  void theKeyOrdersItemsAsTheirScoresDo_atEveryLaterInstant(String formula) {
    HotScore score =
        switch (formula) {
          case "reddit" -> HotScore.reddit(SIGNED);
          case "decay-6h" -> HotScore.decay(SIGNED, Duration.ofHours(6));
          case "decay-1s" -> HotScore.decay(SIGNED, Duration.ofSeconds(1));
          default -> HotScore.decay(SIGNED, Duration.ofDays(30));
        };
    RankKey order = score.rankKey();
    assertThat(order).isNotNull();
    SplittableRandom random = new SplittableRandom(formula.hashCode());
    List<Item> items = randomItems(random, 300);
    for (int round = 0; round < 20; round++) {
      Instant now = T0.plus(Duration.ofDays(3)).plusMillis(random.nextLong(0, 86_400_000L * 400));
      for (int i = 0; i < 2_000; i++) {
        Item a = items.get(random.nextInt(items.size()));
        Item b = items.get(random.nextInt(items.size()));
        double ka = order.key(a.counts(), a.createdAt());
        double kb = order.key(b.counts(), b.createdAt());
        double sa = score.score(a.counts(), a.createdAt(), now);
        double sb = score.score(b.counts(), b.createdAt(), now);
        if (ka > kb) {
          // Scores that underflow to 0 far in the future tie; the key still tells them apart.
          assertThat(sa).as("%s vs %s at %s", a, b, now).isGreaterThanOrEqualTo(sb);
        }
        if (sa > sb * (1 + 1e-9) && sa - sb > 1e-300) {
          assertThat(ka).as("%s vs %s at %s", a, b, now).isGreaterThan(kb);
        }
        assertThat(order.score(ka, now))
            .isCloseTo(sa, within(Math.max(Math.abs(sa) * 1e-9, Double.MIN_NORMAL)));
      }
    }
  }

  @Test
  void decayKeys_keepPositiveZeroAndNegativePointsInTheirBands() {
    RankKey order = HotScore.decay(SIGNED, Duration.ofHours(6)).rankKey();
    Instant old = Instant.parse("1970-01-01T00:00:00Z");
    Instant late = Instant.parse("2200-01-01T00:00:00Z");
    double tiny = order.key(new Interactions(0, 1, 0, 0, 0, 0), old);
    double zero = order.key(Interactions.NONE, late);
    double negative = order.key(new Interactions(0, 0, 0, 0, 0, 1), old);
    assertThat(tiny).isGreaterThan(zero);
    assertThat(zero).isZero();
    assertThat(negative).isLessThan(zero);
    assertThat(order.score(zero, late)).isZero();
  }

  @Test
  void hackerNews_hasNoTimeInvariantOrder() {
    assertThat(HotScore.hackerNews(Weights.likesOnly(), 1.5).rankKey()).isNull();
  }
}
