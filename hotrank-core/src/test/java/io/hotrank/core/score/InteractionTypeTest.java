package io.hotrank.core.score;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InteractionTypeTest {

  @Test
  void wireName_isLowerCaseName() {
    assertThat(InteractionType.values())
        .extracting(InteractionType::wireName)
        .containsExactly("like", "view", "comment", "share", "collect", "dislike");
  }

  @Test
  void fromWireName_everyWireName_roundTrips() {
    for (InteractionType type : InteractionType.values()) {
      assertThat(InteractionType.fromWireName(type.wireName())).contains(type);
    }
  }

  @Test
  void fromWireName_unknownNullOrWrongCase_isEmpty() {
    assertThat(InteractionType.fromWireName("likes")).isEmpty();
    assertThat(InteractionType.fromWireName("LIKE")).isEmpty();
    assertThat(InteractionType.fromWireName("")).isEmpty();
    assertThat(InteractionType.fromWireName(null)).isEmpty();
  }

  @Test
  void countIn_readsTheMatchingField() {
    Interactions counts = new Interactions(1, 2, 3, 4, 5, 6);

    assertThat(InteractionType.values())
        .extracting(type -> type.countIn(counts))
        .containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
  }
}
