package io.hotrank.core.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class InteractionsTest {

  @Test
  void none_hasAllCountsZero() {
    assertThat(Interactions.NONE).isEqualTo(new Interactions(0, 0, 0, 0, 0, 0));
  }

  @Test
  void constructor_negativeCount_rejectedNamingTheField() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Interactions(-1, 0, 0, 0, 0, 0))
        .withMessageContaining("like");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Interactions(0, -1, 0, 0, 0, 0))
        .withMessageContaining("view");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Interactions(0, 0, -1, 0, 0, 0))
        .withMessageContaining("comment");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Interactions(0, 0, 0, -1, 0, 0))
        .withMessageContaining("share");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Interactions(0, 0, 0, 0, -1, 0))
        .withMessageContaining("collect");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Interactions(0, 0, 0, 0, 0, -1))
        .withMessageContaining("dislike");
  }

  @Test
  void constructor_maximumCounts_accepted() {
    Interactions counts = new Interactions(Long.MAX_VALUE, 0, 0, 0, 0, Long.MAX_VALUE);

    assertThat(counts.like()).isEqualTo(Long.MAX_VALUE);
  }
}
