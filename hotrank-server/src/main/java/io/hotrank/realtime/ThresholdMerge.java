package io.hotrank.realtime;

import io.hotrank.board.BoardEntry;
import io.hotrank.board.ControlsApplied;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The best items of a scaled board, merged from its sets (one per segment, ordered by unscaled
 * score) by Fagin's threshold algorithm: an item's scaled score is at most its unscaled score over
 * its segment's divisor (its largest segment's divisor is at least that), so the next member of
 * each set bounds what the set has left. A merge pops the member of the best bound, scores it
 * exactly (its segments, hence its divisor), and stops once its best items all score above every
 * set's bound. It reads each set's first members, then only deeper where the merge goes. Used by
 * {@link ScaledBoards} (live boards and leaderboards) and {@link ScaledWindows} (window boards).
 *
 * @param <M> a member of a set as the kind reads it
 */
final class ThresholdMerge<M> {

  /** What a merge reads of one kind's sets. */
  interface Sets<M> {

    /**
     * The first members of each set named, as many as asked (or all it holds), best first.
     *
     * @return null when the sets were forgotten meanwhile
     */
    @Nullable Map<String, List<M>> top(Map<String, Integer> wanted);

    long itemId(M member);

    /** The member's unscaled score now. */
    double score(M member);

    /**
     * Whether an entry ranks ahead of a member of equal score (younger, then the larger id); false
     * when the member's age is unknown, so that the merge reads on.
     */
    boolean ranksAhead(BoardEntry entry, M member);

    /**
     * Scores popped members exactly: offers each one still on the board, scaled by its largest
     * segment's divisor.
     */
    void score(List<Popped<M>> popped, Consumer<BoardEntry> offer);
  }

  /** A member taken from a segment's set. */
  record Popped<M>(M member, String segment) {}

  /** Members a deeper read of a set adds at most (a set may hold the whole window). */
  static final int DEEPER_AT_MOST = 4_096;

  /** Members popped before they are scored at once. */
  private static final int CARD_BATCH = 256;

  private static final Comparator<BoardEntry> WORST_FIRST = ControlsApplied.BEST_FIRST.reversed();

  private final Sets<M> sets;

  ThresholdMerge(Sets<M> sets) {
    this.sets = sets;
  }

  /** What is left of one segment's set: the members read so far, from the next to take. */
  private final class Cursor {
    final String segment;
    final double divisor;

    /** The largest divisor of any segment: a negative score is largest over it. */
    final double largest;

    List<M> read = List.of();
    int next;
    boolean more;

    Cursor(String segment, double divisor, double largest) {
      this.segment = segment;
      this.divisor = divisor;
      this.largest = largest;
    }

    /**
     * The member that bounds those not taken yet: the next one, or the last read when all read are
     * taken (a set orders equal scores as the board does, or the merge reads on past them).
     */
    M at() {
      return next < read.size() ? read.get(next) : read.getLast();
    }

    /**
     * At most the scaled score of any member not taken yet: a positive score is largest over this
     * segment's divisor (an item's own is at least that), a negative one over the largest of all.
     */
    double bound() {
      double score = sets.score(at());
      return score >= 0 ? score / divisor : score / largest;
    }
  }

  /**
   * The {@code need} best items, best first and ranked from 1; null when the sets were forgotten
   * meanwhile.
   *
   * @param divisors each set's divisor, by segment
   * @param keep how many members a set holds at most
   */
  @Nullable List<BoardEntry> merge(Map<String, Double> divisors, int need, int keep) {
    if (divisors.isEmpty()) {
      return List.of();
    }
    // Enough first members of each set that a board of few segments is merged in one read.
    int first = Math.clamp(2L * need / divisors.size() + 1, 2, keep);
    double largest = 1;
    for (double divisor : divisors.values()) {
      largest = Math.max(largest, divisor);
    }
    Map<String, Cursor> cursors = new LinkedHashMap<>();
    Map<String, Integer> wanted = new LinkedHashMap<>();
    for (Map.Entry<String, Double> segment : divisors.entrySet()) {
      cursors.put(segment.getKey(), new Cursor(segment.getKey(), segment.getValue(), largest));
      wanted.put(segment.getKey(), first);
    }
    if (!read(cursors, wanted)) {
      return null;
    }
    PriorityQueue<Cursor> bounds =
        new PriorityQueue<>(Comparator.comparingDouble((Cursor c) -> c.bound()).reversed());
    cursors.values().stream().filter(c -> !c.read.isEmpty()).forEach(bounds::add);

    PriorityQueue<BoardEntry> best = new PriorityQueue<>(WORST_FIRST);
    Consumer<BoardEntry> offer =
        entry -> {
          best.add(entry);
          if (best.size() > need) {
            best.poll();
          }
        };
    Set<Long> seen = new HashSet<>();
    List<Popped<M>> pending = new ArrayList<>();
    while (true) {
      Cursor top = bounds.peek();
      if (top == null) {
        score(pending, offer);
        break;
      }
      double bound = top.bound();
      // Popped members are scored in batches: when a batch is full, when the board has too few
      // candidates without them, or when no member left could beat or tie the last candidate (a
      // run of members tied with it is popped into one batch).
      if (!pending.isEmpty()
          && (pending.size() >= CARD_BATCH
              || (best.size() < need && best.size() + pending.size() >= need)
              || (best.size() >= need && best.peek().score() > bound))) {
        score(pending, offer);
        continue;
      }
      if (pending.isEmpty() && best.size() >= need) {
        BoardEntry last = best.peek();
        if (last.score() > bound) {
          break; // no member left in any set can score above the board's last candidate
        }
        if (last.score() == bound && sets.ranksAhead(last, top.at())) {
          bounds.poll(); // what this set has left ties at best, and ranks below
          continue;
        }
      }
      bounds.poll();
      if (top.next < top.read.size()) {
        M taken = top.read.get(top.next++);
        if (seen.add(sets.itemId(taken))) {
          pending.add(new Popped<>(taken, top.segment));
        }
        bounds.add(top);
      } else if (top.more) {
        // Its members read so far are taken, and the set holds more: read deeper.
        if (!read(Map.of(top.segment, top), Map.of(top.segment, deeper(top, keep)))) {
          return null;
        }
        if (top.next < top.read.size()) {
          bounds.add(top);
        }
      }
    }
    List<BoardEntry> entries = new ArrayList<>(best);
    entries.sort(ControlsApplied.BEST_FIRST);
    List<BoardEntry> ranked = new ArrayList<>(entries.size());
    for (BoardEntry e : entries) {
      ranked.add(e.withRank(ranked.size() + 1));
    }
    return ranked;
  }

  private void score(List<Popped<M>> pending, Consumer<BoardEntry> offer) {
    if (!pending.isEmpty()) {
      sets.score(List.copyOf(pending), offer);
      pending.clear();
    }
  }

  /** Members a deeper read asks: four times what was read, at most {@link #DEEPER_AT_MOST} more. */
  private int deeper(Cursor cursor, int keep) {
    long size = cursor.read.size();
    return (int) Math.min(keep + 1L, Math.min(4 * size, size + DEEPER_AT_MOST));
  }

  /**
   * Reads the first {@code wanted} members of each cursor's set, from the top: a deeper read
   * replaces what was read and starts over (members already taken are skipped as seen), so that a
   * member that left the set meanwhile moves no other past the cursor.
   *
   * @return false when the sets were forgotten meanwhile
   */
  private boolean read(Map<String, Cursor> cursors, Map<String, Integer> wanted) {
    Map<String, List<M>> tops = sets.top(wanted);
    if (tops == null) {
      return false;
    }
    tops.forEach(
        (segment, top) -> {
          Cursor cursor = cursors.get(segment);
          cursor.read = top;
          cursor.next = 0;
          cursor.more = top.size() >= wanted.get(segment);
        });
    return true;
  }
}
