package io.hotrank.board;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What operators' controls make of a board: the one function every publish goes through (a
 * computation's, a realtime board's, and the re-publish after a control changes). Pure: no I/O
 * besides the caller's lookup, no clock; thread-safe.
 *
 * <p>Given the candidates best first (the computation's top, larger than the board by the number of
 * live controls, so that blocks and pins still leave {@code size} entries):
 *
 * <ol>
 *   <li>controls expired at {@code now} are ignored;
 *   <li>pinned and boosted items that are not candidates, and items the caller names (a control
 *       just removed: an unblocked item), are looked up in one call; what the lookup does not
 *       return (deleted, or outside the board's biz) is not listed;
 *   <li>an item given a second chance is always looked up, and scored as if created when the
 *       control was set (or at the scoring instant, if that is earlier); an entry a second chance
 *       shaped whose control is gone is looked up again, scored by its creation;
 *   <li>blocked items are dropped;
 *   <li>a boosted item's score is multiplied by its factor if it is at least 0 and divided by it if
 *       it is negative (a Hacker News score is negative below one point), so that a factor above 1
 *       always moves an item up and one below 1 down; a score of exactly 0 stays 0. For a
 *       logarithmic score (Reddit) {@code log10(factor)} is added: with positive net votes that
 *       multiplies them by the factor, with negative ones it divides their magnitude by it, and
 *       either way the item moves up for a factor above 1;
 *   <li>the rest is sorted in the board's order (score desc, newer first, larger id first) and cut
 *       to the room the pins leave;
 *   <li>pins are placed at their positions in order of position, then of when they were set: a pin
 *       asking a position taken by an earlier pin goes just after it, a position beyond the list's
 *       end goes at the end;
 *   <li>ranks are numbered 1..n, n at most {@code size}.
 * </ol>
 *
 * An entry shaped by a control carries it ({@link BoardEntry#control()}) with its score before the
 * control, so applying the function to its own output with other controls undoes the old ones:
 * {@link BoardEntry#uncontrolled()} is applied to every candidate first.
 */
public final class ControlsApplied {

  /** The board order: score desc, then the younger item first, then the larger id first. */
  public static final Comparator<BoardEntry> BEST_FIRST =
      Comparator.comparingDouble(BoardEntry::score)
          .reversed()
          .thenComparing(BoardEntry::createdAt, Comparator.reverseOrder())
          .thenComparing(Comparator.comparingLong(BoardEntry::itemId).reversed());

  /** The order pins are placed in: position, then the earlier set first, then the smaller id. */
  static final Comparator<BoardControl> PIN_ORDER =
      Comparator.comparing((BoardControl c) -> c.position() == null ? 0 : c.position())
          .thenComparing(BoardControl::setAt)
          .thenComparingLong(BoardControl::itemId);

  /**
   * Candidates a computation ranks beyond its board and its live controls: kept in the snapshot's
   * reserve, they fill the board when an operator blocks one of its items before the next
   * computation.
   */
  public static final int RESERVE = 10;

  /**
   * The reserve a computation of this board ranks beyond its size and its live controls: {@link
   * #RESERVE}, and on a board under review as many again as the board's size, so that the items
   * review holds leave the public board full unless it holds more than that.
   */
  public static int reserve(BoardDefinition board) {
    return RESERVE + (board.review() == BoardDefinition.Review.OFF ? 0 : board.size());
  }

  private ControlsApplied() {}

  /**
   * A board with its controls applied, and the candidates that did not make it.
   *
   * @param entries ranked 1..n, at most the board's size
   * @param reserve the other candidates (not pinned), best first, ranked after n; blocked ones last
   */
  public record Result(List<BoardEntry> entries, List<BoardEntry> reserve) {}

  /** Whether a control is live at {@code now}: it has no expiry or expires after {@code now}. */
  public static boolean live(BoardControl control, Instant now) {
    return control.expiresAt() == null || control.expiresAt().isAfter(now);
  }

  /** The board's entries with its controls applied; see the class comment. */
  public static List<BoardEntry> apply(
      BoardDefinition board,
      List<BoardEntry> candidates,
      Collection<BoardControl> controls,
      Instant now,
      Collection<Long> alsoLookUp,
      Function<Set<Long>, Map<Long, BoardEntry>> lookup) {
    return apply(
        board.size(), board.logarithmicScore(), candidates, controls, now, alsoLookUp, lookup);
  }

  /**
   * The entries with the controls applied.
   *
   * @param size the board's size: at most this many entries are returned
   * @param logarithmic whether a boost adds {@code log10(factor)} instead of multiplying
   * @param candidates best first; their ranks and controls are ignored
   * @param controls the board's controls; expired ones are ignored
   * @param alsoLookUp items to look up if they are not candidates (a control was just removed)
   * @param lookup the entries of the given items that exist and belong to the board's biz,
   *     uncontrolled; called at most once, and not at all when nothing is missing
   */
  public static List<BoardEntry> apply(
      int size,
      boolean logarithmic,
      List<BoardEntry> candidates,
      Collection<BoardControl> controls,
      Instant now,
      Collection<Long> alsoLookUp,
      Function<Set<Long>, Map<Long, BoardEntry>> lookup) {
    return split(size, logarithmic, candidates, controls, now, alsoLookUp, lookup).entries();
  }

  /**
   * As {@link #apply(int, boolean, List, Collection, Instant, Collection, Function)}, with the
   * reserve.
   */
  public static Result split(
      int size,
      boolean logarithmic,
      List<BoardEntry> candidates,
      Collection<BoardControl> controls,
      Instant now,
      Collection<Long> alsoLookUp,
      Function<Set<Long>, Map<Long, BoardEntry>> lookup) {
    Map<Long, BoardControl> live = new HashMap<>();
    for (BoardControl control : controls) {
      if (live(control, now)) {
        live.put(control.itemId(), control);
      }
    }
    Map<Long, BoardEntry> all = new java.util.LinkedHashMap<>();
    Set<Long> missing = new LinkedHashSet<>();
    for (BoardEntry candidate : candidates) {
      BoardControl control = live.get(candidate.itemId());
      boolean secondChance = control != null && control.action() == ControlAction.SECOND_CHANCE;
      boolean hadOne =
          candidate.control() != null
              && candidate.control().action() == ControlAction.SECOND_CHANCE;
      if (secondChance || hadOne) {
        missing.add(candidate.itemId()); // scored again, by its second chance or without it
      } else {
        all.putIfAbsent(candidate.itemId(), candidate);
      }
    }
    for (BoardControl control : live.values()) {
      if (control.action() != ControlAction.BLOCK && !all.containsKey(control.itemId())) {
        missing.add(control.itemId());
      }
    }
    for (Long id : alsoLookUp) {
      BoardControl control = live.get(id);
      boolean blocked = control != null && control.action() == ControlAction.BLOCK;
      if (!blocked && !all.containsKey(id)) {
        missing.add(id);
      }
    }
    if (!missing.isEmpty()) {
      lookup.apply(Set.copyOf(missing)).forEach(all::putIfAbsent);
    }

    List<BoardEntry> ranked = new ArrayList<>(all.size());
    List<BoardEntry> blocked = new ArrayList<>();
    List<Pinned> pins = new ArrayList<>();
    for (BoardEntry entry : all.values()) {
      BoardEntry base = entry.uncontrolled();
      BoardControl control = live.get(base.itemId());
      if (control == null) {
        ranked.add(base);
        continue;
      }
      switch (control.action()) {
        case BLOCK -> blocked.add(base);
        case BOOST -> {
          double factor = control.factor() == null ? 1 : control.factor();
          double boosted = boosted(base.score(), factor, logarithmic);
          ranked.add(
              base.withControl(
                  boosted,
                  new BoardEntry.Applied(ControlAction.BOOST, null, factor, base.score())));
        }
        case SECOND_CHANCE ->
            ranked.add(
                base.withControl(
                    base.score(),
                    new BoardEntry.Applied(ControlAction.SECOND_CHANCE, null, null, base.score())));
        case PIN ->
            pins.add(
                new Pinned(
                    control,
                    base.withControl(
                        base.score(),
                        new BoardEntry.Applied(
                            ControlAction.PIN, control.position(), null, base.score()))));
      }
    }
    ranked.sort(BEST_FIRST);
    pins.sort(Comparator.comparing(Pinned::control, PIN_ORDER));

    int room = Math.max(0, size - pins.size());
    List<BoardEntry> board = new ArrayList<>(ranked.subList(0, Math.min(room, ranked.size())));
    int previous = -1;
    for (Pinned pin : pins) {
      int position = pin.control().position() == null ? 1 : pin.control().position();
      int at = Math.min(Math.max(position - 1, previous + 1), board.size());
      board.add(at, pin.entry());
      previous = at;
    }
    List<BoardEntry> numbered = new ArrayList<>(Math.min(size, board.size()));
    for (int i = 0; i < board.size() && i < size; i++) {
      numbered.add(board.get(i).withRank(i + 1));
    }
    List<BoardEntry> reserve = new ArrayList<>();
    for (int i = Math.min(room, ranked.size()); i < ranked.size(); i++) {
      reserve.add(ranked.get(i).withRank(numbered.size() + reserve.size() + 1));
    }
    // Blocked candidates stay last in the reserve, never shown: lifting the block brings the item
    // back with the score it was computed with, which a kind that scores from Redis (a window)
    // could not look up again.
    blocked.sort(BEST_FIRST);
    for (BoardEntry entry : blocked) {
      reserve.add(entry.withRank(numbered.size() + reserve.size() + 1));
    }
    return new Result(numbered, reserve);
  }

  /**
   * When an item counts as created for its score: when it was, or for an item given a second chance
   * when the control was set (at most {@code at}: a chance given after the scoring instant scores
   * as age zero then).
   */
  public static long scoredCreation(
      @Nullable BoardControl control, long createdAtMillis, Instant at) {
    if (control == null || control.action() != ControlAction.SECOND_CHANCE) {
      return createdAtMillis;
    }
    return Math.min(control.setAt().toEpochMilli(), at.toEpochMilli());
  }

  /** The ids of the items whose controls are live at {@code now}. */
  public static Set<Long> controlledIds(Collection<BoardControl> controls, Instant now) {
    Set<Long> ids = new HashSet<>();
    for (BoardControl control : controls) {
      if (live(control, now)) {
        ids.add(control.itemId());
      }
    }
    return ids;
  }

  private record Pinned(BoardControl control, BoardEntry entry) {}

  /**
   * A score boosted by a factor: multiplied when at least 0, divided when negative, so that a
   * factor above 1 lifts every item and one below 1 lowers it (multiplying a negative score by 2
   * would push it down); for a logarithmic score (Reddit) {@code log10(factor)} added.
   */
  public static double boosted(double score, double factor, boolean logarithmic) {
    if (logarithmic) {
      return score + Math.log10(factor);
    }
    return score >= 0 ? score * factor : score / factor;
  }
}
