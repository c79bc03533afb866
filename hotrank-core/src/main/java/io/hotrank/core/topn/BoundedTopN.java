package io.hotrank.core.topn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Keeps the best {@code capacity} elements out of everything offered to it, for example the top 100
 * items of a hot list computed in one pass over all items.
 *
 * <p>"Best" is defined by a comparator where {@code bestFirst.compare(a, b) < 0} means {@code a}
 * ranks before (is better than) {@code b}. The comparator should be a total order (break ties, for
 * example by id): a candidate that compares equal to the worst kept element is not kept, so with
 * ties the outcome depends on the order of offers.
 *
 * <p>Each {@link #offer(Object)} costs O(log capacity); memory is O(min(capacity, offers)).
 *
 * <p>Not thread-safe: confine an instance to one thread or synchronize externally.
 *
 * @param <T> the element type
 */
public final class BoundedTopN<T> {

  private static final int INITIAL_ARRAY_LENGTH = 16;

  /*
   * A binary min-heap over "rank" stored in an array: heap[0] is the WORST kept element, so the
   * one to evict is always at hand and a candidate needs a single comparison to be rejected.
   * Children of i are at 2i+1 and 2i+2; every parent ranks at or after its children.
   *
   * Hand-written rather than wrapping java.util.PriorityQueue because replacing the root is the
   * hot path once full, and PriorityQueue can only do it as poll() plus offer(), two sifts instead
   * of one; it would also keep growing its array past the capacity bound we already know.
   */
  private final int capacity;
  private final Comparator<? super T> bestFirst;
  private Object[] heap;
  private int size;

  /**
   * Creates an empty collector.
   *
   * @param capacity how many elements to keep at most; 0 keeps nothing
   * @param bestFirst the ranking, negative when the first argument ranks before the second
   * @throws IllegalArgumentException if {@code capacity} is negative
   * @throws NullPointerException if {@code bestFirst} is {@code null}
   */
  public BoundedTopN(int capacity, Comparator<? super T> bestFirst) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0 but was " + capacity);
    }
    this.capacity = capacity;
    this.bestFirst = Objects.requireNonNull(bestFirst, "bestFirst");
    // Allocated lazily up to capacity, so a large bound over few offers costs little memory.
    this.heap = new Object[Math.min(capacity, INITIAL_ARRAY_LENGTH)];
  }

  /**
   * Offers a candidate. While fewer than {@code capacity} elements are kept, it is always kept;
   * once full, it is kept only if it ranks strictly before the worst kept element, which it then
   * replaces.
   *
   * @param candidate the element to consider
   * @return whether the candidate is now among the kept elements
   * @throws NullPointerException if {@code candidate} is {@code null}
   */
  public boolean offer(T candidate) {
    Objects.requireNonNull(candidate, "candidate");
    if (size < capacity) {
      if (size == heap.length) {
        heap = Arrays.copyOf(heap, (int) Math.min(capacity, 2L * heap.length));
      }
      siftUp(size, candidate);
      size++;
      return true;
    }
    if (capacity == 0 || bestFirst.compare(candidate, elementAt(0)) >= 0) {
      return false;
    }
    siftDown(candidate);
    return true;
  }

  /**
   * Returns how many elements are kept.
   *
   * @return a number between 0 and {@link #capacity()}
   */
  public int size() {
    return size;
  }

  /**
   * Returns the maximum number of elements kept.
   *
   * @return the capacity given at construction
   */
  public int capacity() {
    return capacity;
  }

  /**
   * Returns the kept elements, best first. The collector is left unchanged and may keep receiving
   * offers. Costs O(size log size).
   *
   * @return a new, modifiable list owned by the caller
   */
  public List<T> toSortedList() {
    List<T> sorted = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      sorted.add(elementAt(i));
    }
    sorted.sort(bestFirst);
    return sorted;
  }

  /** Places {@code element} at the free slot {@code hole}, moving better-ranked parents down. */
  private void siftUp(int hole, T element) {
    while (hole > 0) {
      int parent = (hole - 1) >>> 1;
      T parentElement = elementAt(parent);
      if (bestFirst.compare(parentElement, element) >= 0) {
        break;
      }
      heap[hole] = parentElement;
      hole = parent;
    }
    heap[hole] = element;
  }

  /** Replaces the root with {@code element}, moving worse-ranked children up past it. */
  private void siftDown(T element) {
    int hole = 0;
    int firstLeaf = size >>> 1;
    while (hole < firstLeaf) {
      int child = 2 * hole + 1;
      int right = child + 1;
      if (right < size && bestFirst.compare(elementAt(right), elementAt(child)) > 0) {
        child = right;
      }
      T childElement = elementAt(child);
      if (bestFirst.compare(childElement, element) <= 0) {
        break;
      }
      heap[hole] = childElement;
      hole = child;
    }
    heap[hole] = element;
  }

  @SuppressWarnings("unchecked") // Only T instances are ever stored in heap.
  private T elementAt(int index) {
    return (T) heap[index];
  }
}
