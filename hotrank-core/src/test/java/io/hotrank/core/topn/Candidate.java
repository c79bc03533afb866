package io.hotrank.core.topn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * A ranked item for property tests: scores and creation times come from tiny sets so that ties on
 * them are common, and only the unique id makes the order total.
 */
record Candidate(double score, long createdAt, long id) {

  /** Score descending, then createdAt descending (newer first), then id descending. */
  static final Comparator<Candidate> BEST_FIRST =
      Comparator.comparingDouble(Candidate::score)
          .thenComparingLong(Candidate::createdAt)
          .thenComparingLong(Candidate::id)
          .reversed();

  private static final double[] SCORES = {-1.0, 0.0, 0.5, 2.0};
  private static final long[] CREATED_AT = {1_000L, 2_000L, 3_000L};

  /** {@code count} candidates with ids drawn without repetition, in random order. */
  static List<Candidate> randomList(Random random, int count, long firstId) {
    List<Candidate> candidates = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      candidates.add(
          new Candidate(
              SCORES[random.nextInt(SCORES.length)],
              CREATED_AT[random.nextInt(CREATED_AT.length)],
              firstId + i));
    }
    Collections.shuffle(candidates, random);
    return candidates;
  }
}
