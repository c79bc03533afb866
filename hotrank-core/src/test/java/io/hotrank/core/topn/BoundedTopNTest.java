package io.hotrank.core.topn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BoundedTopNTest {

  private static final Comparator<Integer> LARGEST_FIRST = Comparator.reverseOrder();

  @Test
  void toSortedList_randomOffersWithManyTies_equalsFullSortTruncated() {
    for (long seed = 0; seed < 500; seed++) {
      Random random = new Random(seed);
      List<Candidate> candidates = Candidate.randomList(random, random.nextInt(2001), 0);
      int capacity = random.nextInt(301);
      BoundedTopN<Candidate> topN = new BoundedTopN<>(capacity, Candidate.BEST_FIRST);

      candidates.forEach(topN::offer);

      List<Candidate> expected =
          candidates.stream().sorted(Candidate.BEST_FIRST).limit(capacity).toList();
      assertThat(topN.toSortedList())
          .as("seed=%d, candidates=%d, capacity=%d", seed, candidates.size(), capacity)
          .containsExactlyElementsOf(expected);
      assertThat(topN.size()).as("seed=%d", seed).isEqualTo(expected.size());
    }
  }

  @Test
  void offer_returnValue_tellsWhetherCandidateIsAmongKept() {
    for (long seed = 0; seed < 200; seed++) {
      Random random = new Random(seed);
      List<Candidate> candidates = Candidate.randomList(random, random.nextInt(300), 0);
      BoundedTopN<Candidate> topN = new BoundedTopN<>(random.nextInt(20), Candidate.BEST_FIRST);

      for (Candidate candidate : candidates) {
        boolean kept = topN.offer(candidate);
        assertThat(topN.toSortedList().contains(candidate))
            .as("seed=%d, candidate=%s", seed, candidate)
            .isEqualTo(kept);
      }
    }
  }

  @Test
  void offer_capacityZero_keepsNothing() {
    BoundedTopN<Integer> topN = new BoundedTopN<>(0, LARGEST_FIRST);

    assertThat(topN.offer(42)).isFalse();
    assertThat(topN.offer(Integer.MAX_VALUE)).isFalse();
    assertThat(topN.size()).isZero();
    assertThat(topN.capacity()).isZero();
    assertThat(topN.toSortedList()).isEmpty();
  }

  @Test
  void offer_notFull_alwaysKeeps() {
    BoundedTopN<Integer> topN = new BoundedTopN<>(3, LARGEST_FIRST);

    assertThat(topN.offer(1)).isTrue();
    assertThat(topN.offer(-5)).isTrue();
    assertThat(topN.offer(1)).isTrue();
    assertThat(topN.toSortedList()).containsExactly(1, 1, -5);
  }

  @Test
  void offer_fullAndCandidateWorseThanAllKept_returnsFalseAndKeepsContents() {
    BoundedTopN<Integer> topN = new BoundedTopN<>(3, LARGEST_FIRST);
    List.of(10, 20, 30).forEach(topN::offer);

    assertThat(topN.offer(5)).isFalse();
    assertThat(topN.toSortedList()).containsExactly(30, 20, 10);
  }

  @Test
  void offer_fullAndCandidateTiesWithWorstKept_returnsFalse() {
    BoundedTopN<Integer> topN = new BoundedTopN<>(3, LARGEST_FIRST);
    List.of(10, 20, 30).forEach(topN::offer);

    assertThat(topN.offer(10)).isFalse();
    assertThat(topN.size()).isEqualTo(3);
  }

  @Test
  void offer_fullAndCandidateBetterThanWorstKept_replacesWorst() {
    BoundedTopN<Integer> topN = new BoundedTopN<>(3, LARGEST_FIRST);
    List.of(10, 20, 30).forEach(topN::offer);

    assertThat(topN.offer(25)).isTrue();
    assertThat(topN.toSortedList()).containsExactly(30, 25, 20);
    assertThat(topN.size()).isEqualTo(3);
  }

  @Test
  void toSortedList_calledTwice_doesNotConsume() {
    BoundedTopN<Integer> topN = new BoundedTopN<>(4, LARGEST_FIRST);
    List.of(3, 1, 4, 1, 5, 9, 2, 6).forEach(topN::offer);

    List<Integer> first = topN.toSortedList();
    List<Integer> second = topN.toSortedList();

    assertThat(first).containsExactly(9, 6, 5, 4);
    assertThat(second).isEqualTo(first);
    assertThat(topN.size()).isEqualTo(4);
  }

  @Test
  void toSortedList_returnsIndependentCopy() {
    BoundedTopN<Integer> topN = new BoundedTopN<>(2, LARGEST_FIRST);
    List.of(1, 2).forEach(topN::offer);

    topN.toSortedList().clear();
    topN.offer(3);

    assertThat(topN.toSortedList()).containsExactly(3, 2);
  }

  @Test
  void constructor_hugeCapacity_doesNotAllocateItUpFront() {
    BoundedTopN<Integer> topN = new BoundedTopN<>(Integer.MAX_VALUE, LARGEST_FIRST);

    for (int i = 0; i < 100; i++) {
      topN.offer(i);
    }

    assertThat(topN.size()).isEqualTo(100);
    assertThat(topN.toSortedList()).first().isEqualTo(99);
  }

  @Test
  void constructor_negativeCapacity_rejected() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new BoundedTopN<>(-1, LARGEST_FIRST))
        .withMessageContaining("capacity");
  }

  @Test
  void constructor_nullComparator_rejected() {
    assertThatNullPointerException().isThrownBy(() -> new BoundedTopN<Integer>(3, null));
  }

  @Test
  void offer_nullCandidate_rejected() {
    BoundedTopN<Integer> topN = new BoundedTopN<>(3, LARGEST_FIRST);

    assertThatNullPointerException().isThrownBy(() -> topN.offer(null));
  }
}
