package io.hotrank.core.topn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KWayMergeTest {

  @Test
  void mergeTop_randomSortedRuns_equalsConcatenateSortTake() {
    for (long seed = 0; seed < 500; seed++) {
      Random random = new Random(seed);
      int runCount = random.nextInt(11);
      List<List<Candidate>> runs = new ArrayList<>();
      List<Candidate> all = new ArrayList<>();
      for (int run = 0; run < runCount; run++) {
        // Disjoint id ranges per run keep ids unique, so the order is total.
        List<Candidate> sortedRun =
            new ArrayList<>(Candidate.randomList(random, random.nextInt(201), run * 1_000L));
        sortedRun.sort(Candidate.BEST_FIRST);
        runs.add(sortedRun);
        all.addAll(sortedRun);
      }
      int limit = random.nextInt(all.size() + 20);

      List<Candidate> merged = KWayMerge.mergeTop(runs, Candidate.BEST_FIRST, limit);

      List<Candidate> expected = all.stream().sorted(Candidate.BEST_FIRST).limit(limit).toList();
      assertThat(merged)
          .as("seed=%d, runs=%d, elements=%d, limit=%d", seed, runCount, all.size(), limit)
          .containsExactlyElementsOf(expected);
    }
  }

  @Test
  void mergeTop_tiesAcrossRuns_takenFromEarlierRunFirst() {
    Comparator<String> longestFirst = Comparator.comparingInt(String::length).reversed();
    List<List<String>> runs = List.of(List.of("aa", "b"), List.of("cc", "d"), List.of("eee"));

    assertThat(KWayMerge.mergeTop(runs, longestFirst, 10))
        .containsExactly("eee", "aa", "cc", "b", "d");
  }

  @Test
  void mergeTop_limitZero_isEmpty() {
    assertThat(KWayMerge.mergeTop(List.of(List.of(3, 2, 1)), Comparator.<Integer>reverseOrder(), 0))
        .isEmpty();
  }

  @Test
  void mergeTop_noRunsOrOnlyEmptyRuns_isEmpty() {
    assertThat(KWayMerge.mergeTop(List.<List<Integer>>of(), Comparator.<Integer>reverseOrder(), 5))
        .isEmpty();
    assertThat(
            KWayMerge.mergeTop(
                List.of(List.<Integer>of(), List.<Integer>of()),
                Comparator.<Integer>reverseOrder(),
                5))
        .isEmpty();
  }

  @Test
  void mergeTop_limitLargerThanAllElements_returnsEverythingMerged() {
    List<List<Integer>> runs =
        List.of(new LinkedList<>(List.of(9, 4, 1)), List.of(8, 7), List.of(5));

    assertThat(KWayMerge.mergeTop(runs, Comparator.<Integer>reverseOrder(), Integer.MAX_VALUE))
        .containsExactly(9, 8, 7, 5, 4, 1);
  }

  @Test
  void mergeTop_negativeLimit_rejected() {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () -> KWayMerge.mergeTop(List.of(List.of(1)), Comparator.<Integer>naturalOrder(), -1))
        .withMessageContaining("limit");
  }

  @Test
  void mergeTop_nullRun_rejected() {
    List<List<Integer>> runs = Arrays.asList(List.of(1), null);

    assertThatNullPointerException()
        .isThrownBy(() -> KWayMerge.mergeTop(runs, Comparator.<Integer>naturalOrder(), 1));
  }
}
