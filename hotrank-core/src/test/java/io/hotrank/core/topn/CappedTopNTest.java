package io.hotrank.core.topn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class CappedTopNTest {

  /** The group of a candidate: its id modulo a number of groups, a stand-in for an author. */
  private static Function<Candidate, Long> groups(int n) {
    return c -> c.id() % n;
  }

  /** Sort everything, then take best first, skipping a candidate whose group is full. */
  private static List<Candidate> model(
      List<Candidate> all, int capacity, int cap, Function<Candidate, Long> group) {
    List<Candidate> sorted = new ArrayList<>(all);
    sorted.sort(Candidate.BEST_FIRST);
    Map<Long, Integer> taken = new HashMap<>();
    List<Candidate> board = new ArrayList<>();
    for (Candidate c : sorted) {
      if (board.size() == capacity) {
        break;
      }
      int n = taken.getOrDefault(group.apply(c), 0);
      if (n < cap) {
        taken.put(group.apply(c), n + 1);
        board.add(c);
      }
    }
    return board;
  }

  @Test
  void keepsWhatTheGreedyCappedSelectionKeeps_forRandomStreams() {
    Random random = new Random(7);
    for (int round = 0; round < 2_000; round++) {
      int count = random.nextInt(200);
      int capacity = random.nextInt(30);
      int cap = 1 + random.nextInt(4);
      Function<Candidate, Long> group = groups(1 + random.nextInt(12));
      List<Candidate> all = Candidate.randomList(random, count, 1);
      CappedTopN<Candidate, Long> top =
          new CappedTopN<>(capacity, cap, group, Candidate.BEST_FIRST);
      all.forEach(top::offer);
      assertThat(top.toSortedList())
          .as("round %d: %d offered, capacity %d, cap %d", round, count, capacity, cap)
          .containsExactlyElementsOf(model(all, capacity, cap, group));
    }
  }

  @Test
  void aCapAtLeastTheCapacity_isTheUncappedTopN() {
    Random random = new Random(11);
    List<Candidate> all = Candidate.randomList(random, 500, 1);
    CappedTopN<Candidate, Long> capped = new CappedTopN<>(20, 20, c -> 0L, Candidate.BEST_FIRST);
    BoundedTopN<Candidate> plain = new BoundedTopN<>(20, Candidate.BEST_FIRST);
    all.forEach(
        c -> {
          capped.offer(c);
          plain.offer(c);
        });
    assertThat(capped.toSortedList()).containsExactlyElementsOf(plain.toSortedList());
  }

  @Test
  void refusesANegativeCapacityAndACapBelowOne() {
    assertThatThrownBy(() -> new CappedTopN<Candidate, Long>(-1, 1, c -> 0L, Candidate.BEST_FIRST))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CappedTopN<Candidate, Long>(5, 0, c -> 0L, Candidate.BEST_FIRST))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
