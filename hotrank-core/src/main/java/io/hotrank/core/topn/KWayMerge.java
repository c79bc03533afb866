package io.hotrank.core.topn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * Merges several already-ranked runs into one ranking, for example the per-shard top lists of a
 * sharded leaderboard.
 *
 * <p>Stateless; safe to call from any thread as long as the runs are not modified during the call.
 */
public final class KWayMerge {

  private KWayMerge() {}

  /**
   * Returns the first {@code limit} elements of the merged order of {@code sortedRuns}.
   *
   * <p>Each run must already be sorted best first by {@code bestFirst} (negative when the first
   * argument ranks before the second); this is not checked, and unsorted runs give an unspecified
   * order. Elements comparing equal are taken from the earlier run first, and within a run in run
   * order, so the result is deterministic even with ties. Runs are only read from the front, so
   * they are never fully traversed when {@code limit} is small. Costs O(k + limit log k) for k
   * runs.
   *
   * @param sortedRuns the runs, each sorted best first; may be empty, and runs may be empty
   * @param bestFirst the ranking the runs are sorted by
   * @param limit how many elements to return at most
   * @param <T> the element type
   * @return a new, modifiable list of {@code min(limit, total elements)} elements, best first
   * @throws IllegalArgumentException if {@code limit} is negative
   * @throws NullPointerException if {@code sortedRuns}, one of its runs, or {@code bestFirst} is
   *     {@code null}
   */
  public static <T> List<T> mergeTop(
      List<? extends List<? extends T>> sortedRuns, Comparator<? super T> bestFirst, int limit) {
    Objects.requireNonNull(sortedRuns, "sortedRuns");
    Objects.requireNonNull(bestFirst, "bestFirst");
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be >= 0 but was " + limit);
    }
    // The heap holds one head per non-empty run; ties go to the lower run index for determinism.
    Comparator<Head<T>> headOrder =
        Comparator.<Head<T>, T>comparing(Head::value, bestFirst).thenComparingInt(Head::run);
    // PriorityQueue's poll-then-add costs two sifts per element; k is the shard count, small
    // enough that a hand-written replace-top (as in BoundedTopN) is not worth its code.
    PriorityQueue<Head<T>> heads = new PriorityQueue<>(Math.max(1, sortedRuns.size()), headOrder);
    long available = 0;
    int run = 0;
    for (List<? extends T> sortedRun : sortedRuns) {
      Objects.requireNonNull(sortedRun, () -> "sortedRuns contains null");
      available += sortedRun.size();
      Iterator<? extends T> rest = sortedRun.iterator();
      if (rest.hasNext()) {
        heads.add(new Head<>(rest.next(), run, rest));
      }
      run++;
    }
    List<T> merged = new ArrayList<>((int) Math.min(limit, available));
    while (merged.size() < limit && !heads.isEmpty()) {
      Head<T> best = heads.poll();
      merged.add(best.value());
      if (best.rest().hasNext()) {
        heads.add(new Head<>(best.rest().next(), best.run(), best.rest()));
      }
    }
    return merged;
  }

  /** The current front element of one run, plus where to continue reading that run. */
  private record Head<T>(T value, int run, Iterator<? extends T> rest) {}
}
