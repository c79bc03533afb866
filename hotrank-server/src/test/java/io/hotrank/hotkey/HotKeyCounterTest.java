package io.hotrank.hotkey;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HotKeyCounterTest {

  private static final long SLICE = 200;

  @Test
  void eachTake_handsOverOnlyTheReadsSinceTheLastOne_perSlice() {
    HotKeyCounter counter = new HotKeyCounter(SLICE, 100, 1_000);
    for (int i = 0; i < 5; i++) {
      counter.record("a", 1_010);
    }
    counter.record("b", 1_020);
    assertThat(counter.take(1_050, 10))
        .isEqualTo(Map.of(5L, List.of(entry("a", 5), entry("b", 1))));
    assertThat(counter.take(1_060, 10)).as("nothing new").isEmpty();

    counter.record("a", 1_100);
    counter.record("a", 1_150);
    counter.record("c", 1_210); // the next slice: slice 5 is over
    Map<Long, List<Map.Entry<String, Long>>> taken = counter.take(1_220, 10);
    assertThat(taken)
        .containsExactly(
            Map.entry(5L, List.of(entry("a", 2))), Map.entry(6L, List.of(entry("c", 1))));
    counter.record("c", 1_230);
    assertThat(counter.take(1_240, 10)).isEqualTo(Map.of(6L, List.of(entry("c", 1))));
  }

  @Test
  void aTake_handsOverTheKeysWithMostNewReads_andKeepsTheRestForLater() {
    HotKeyCounter counter = new HotKeyCounter(SLICE, 100, 0);
    for (int i = 0; i < 3; i++) {
      counter.record("x", 10);
    }
    counter.record("y", 10);
    counter.record("z", 10);
    counter.record("z", 10);
    assertThat(counter.take(20, 2)).isEqualTo(Map.of(0L, List.of(entry("x", 3), entry("z", 2))));
    assertThat(counter.take(30, 2)).isEqualTo(Map.of(0L, List.of(entry("y", 1))));
  }

  @Test
  void aFullSlice_countsNoFurtherKeys_butStillItsOwn() {
    HotKeyCounter counter = new HotKeyCounter(SLICE, 2, 0);
    counter.record("a", 1);
    counter.record("b", 1);
    counter.record("c", 1);
    counter.record("a", 1);
    assertThat(counter.dropped()).isEqualTo(1);
    assertThat(counter.take(10, 10)).isEqualTo(Map.of(0L, List.of(entry("a", 2), entry("b", 1))));
  }

  private static Map.Entry<String, Long> entry(String key, long count) {
    return Map.entry(key, count);
  }
}
