package io.hotrank.core.topn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Keeps the best {@code capacity} elements out of everything offered to it with at most {@code cap}
 * of any one group (an author, say): what taking the offered elements best first and skipping those
 * whose group is full would keep, until {@code capacity} are kept. So a hot list capped at two
 * entries per author still has its full size, the next best items taking the places.
 *
 * <p>Why one pass is exact: an element is dropped either as the worst of a full collector (then
 * {@code capacity} kept elements rank before it, and later offers only add better ones) or as
 * ranking after the {@code cap} kept elements of its own group (which leave only when the collector
 * drops them as its worst, and then it ranks after them and is dropped as well). Neither can be
 * part of the final answer.
 *
 * <p>The comparator must be a total order (break ties, for example by id). Each {@link #offer}
 * costs O(log capacity); memory is O(capacity). Not thread-safe.
 *
 * @param <T> the element type
 * @param <G> the group type
 */
public final class CappedTopN<T, G> {

  private final int capacity;
  private final int cap;
  private final Function<? super T, ? extends G> group;
  private final TreeSet<T> kept;
  private final Map<G, TreeSet<T>> byGroup = new HashMap<>();
  private final Comparator<? super T> bestFirst;

  /**
   * Creates an empty collector.
   *
   * @param capacity how many elements to keep at most
   * @param cap how many elements of one group to keep at most, at least 1
   * @param group the group of an element
   * @param bestFirst the ranking, negative when the first argument ranks before the second
   * @throws IllegalArgumentException if {@code capacity} is negative or {@code cap} below 1
   */
  public CappedTopN(
      int capacity,
      int cap,
      Function<? super T, ? extends G> group,
      Comparator<? super T> bestFirst) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
    }
    if (cap < 1) {
      throw new IllegalArgumentException("cap must be >= 1, got " + cap);
    }
    this.capacity = capacity;
    this.cap = cap;
    this.group = Objects.requireNonNull(group, "group");
    this.bestFirst = Objects.requireNonNull(bestFirst, "bestFirst");
    this.kept = new TreeSet<>(bestFirst);
  }

  /**
   * Offers an element.
   *
   * @return whether it is kept (for now)
   */
  public boolean offer(T candidate) {
    if (capacity == 0) {
      return false;
    }
    G g = group.apply(candidate);
    TreeSet<T> own = byGroup.get(g);
    if (own != null && own.size() == cap) {
      T worstOwn = own.last();
      if (bestFirst.compare(candidate, worstOwn) >= 0) {
        return false;
      }
      own.pollLast();
      kept.remove(worstOwn);
      own.add(candidate);
      kept.add(candidate);
      return true;
    }
    if (kept.size() == capacity) {
      T worst = kept.last();
      if (bestFirst.compare(candidate, worst) >= 0) {
        return false;
      }
      kept.pollLast();
      G worstGroup = group.apply(worst);
      TreeSet<T> theirs = byGroup.get(worstGroup);
      theirs.remove(worst);
      if (theirs.isEmpty()) {
        byGroup.remove(worstGroup);
      }
      own = byGroup.get(g); // the evicted element may have been this group's last
    }
    if (own == null) {
      own = new TreeSet<>(bestFirst);
      byGroup.put(g, own);
    }
    own.add(candidate);
    kept.add(candidate);
    return true;
  }

  /** How many elements are kept now. */
  public int size() {
    return kept.size();
  }

  /** The kept elements, best first. */
  public List<T> toSortedList() {
    return new ArrayList<>(kept);
  }
}
