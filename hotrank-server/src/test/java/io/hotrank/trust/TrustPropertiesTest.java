package io.hotrank.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TrustPropertiesTest {

  private static final TrustProperties.MaxPerActor CAPS =
      new TrustProperties.MaxPerActor(3, 3, 1, 1);

  @Test
  void outOfRangeSettings_stopTheStart_namingTheProperty() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new TrustProperties(1.5, Duration.ofDays(7), 1, CAPS, 0.5, 0.5))
        .withMessageContaining("hotrank.trust.new-actor-weight must be between 0 and 1");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new TrustProperties(0.2, Duration.ofDays(7), Double.NaN, CAPS, 0.5, 0.5))
        .withMessageContaining("hotrank.trust.anonymous-weight must be between 0 and 1");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new TrustProperties(0.2, Duration.ofDays(-1), 1, CAPS, 0.5, 0.5))
        .withMessageContaining("hotrank.trust.new-actor-age must not be negative");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new TrustProperties.MaxPerActor(-1, 3, 1, 1))
        .withMessageContaining("hotrank.trust.max-per-actor.view must be 0 (no cap) or more");
  }

  @Test
  void weights_followTheRules_inThousandths() {
    ActorWeights weights = new ActorWeights(null, TrustProperties.defaults());
    java.time.Instant created = java.time.Instant.parse("2026-01-01T00:00:00Z");
    Actor old = new Actor(1, created, false, 0.5, null, created);
    long aYearOn = created.plus(Duration.ofDays(365)).toEpochMilli();
    long anHourOn = created.plus(Duration.ofHours(1)).toEpochMilli();

    assertThat(weights.weight(old, aYearOn)).isEqualTo(500);
    assertThat(weights.weight(old, anHourOn)).as("new: a fifth of its trust").isEqualTo(100);
    assertThat(weights.weight(new Actor(1, created, true, 1, null, created), aYearOn)).isZero();
    Actor flagged = new Actor(1, created, false, 1, new Actor.Flag("ring", "op", created), created);
    assertThat(weights.weight(flagged, aYearOn)).isZero();
    assertThat(weights.weight(new Actor(1, null, false, 1, null, created), aYearOn))
        .as("only ever flagged, then cleared: as anonymous")
        .isEqualTo(1000);
    assertThat(
            weights.weight(
                new Actor(1, created, false, 1, null, created),
                created.plus(Duration.ofDays(7)).toEpochMilli()))
        .as("7 days old is no longer new")
        .isEqualTo(1000);
  }
}
