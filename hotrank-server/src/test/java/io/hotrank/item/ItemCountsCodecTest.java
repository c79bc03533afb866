package io.hotrank.item;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.core.score.Interactions;
import org.junit.jupiter.api.Test;

class ItemCountsCodecTest {

  private final ItemCountsCodec codec = new ItemCountsCodec();

  @Test
  void rawAndTrusted_roundTrip() {
    Counters counters =
        new Counters(new Interactions(1, 2, 3, 4, 5, 6), new Interactions(200, 2000, 3, 0, 5, 60));

    assertThat(codec.encode(counters)).isEqualTo("1,2,3,4,5,6,200,2000,3,0,5,60");
    assertThat(codec.decode(codec.encode(counters))).isEqualTo(counters);
  }

  /** What Redis held before trusted counters: six numbers, read as interactions that weighed 1. */
  @Test
  void sixNumbers_writtenBeforeTrustedCounters_areRawCountersTrustedAtWeightOne() {
    assertThat(codec.decode("7,0,1,0,2,3"))
        .isEqualTo(
            new Counters(
                new Interactions(7, 0, 1, 0, 2, 3),
                new Interactions(7000, 0, 1000, 0, 2000, 3000)));
  }
}
