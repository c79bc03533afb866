package io.hotrank.realtime;

import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.FoldedEvent;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The items that folds a board missed changed, read back from the history: what a catch-up writes
 * afresh from the current counters.
 *
 * @param ids the items of the events {@code wanted} took
 * @param pruned the first fold no longer on record, or 0 when every fold was read (then {@code ids}
 *     is incomplete and the board must be rebuilt)
 * @param last the last fold read
 */
record MissedFolds(Set<Long> ids, long pruned, long last) {

  /** Reads folds {@code from .. to}, stopping at the first one pruned. */
  static MissedFolds read(FoldHistory history, long from, long to, Predicate<FoldedEvent> wanted) {
    return read(history, from, to, wanted, Integer.MAX_VALUE);
  }

  /**
   * Reads folds {@code from .. to}, stopping at the first one pruned, or after the fold that
   * brought the items to {@code maxIds} or more ({@link #last} says which fold was read last).
   */
  static MissedFolds read(
      FoldHistory history, long from, long to, Predicate<FoldedEvent> wanted, int maxIds) {
    Set<Long> ids = new HashSet<>();
    for (long f = from; f <= to; f++) {
      var events = history.eventsOf(f);
      if (events == null) {
        return new MissedFolds(ids, f, f - 1);
      }
      for (FoldedEvent e : events) {
        if (wanted.test(e)) {
          ids.add(e.event().itemId());
        }
      }
      if (ids.size() >= maxIds) {
        return new MissedFolds(ids, 0, f);
      }
    }
    return new MissedFolds(ids, 0, to);
  }

  /**
   * Reads the items folds {@code from .. to} changed (a flag's retraction too, which has no
   * events), stopping at the first one pruned, or after the fold that brought the items {@code
   * wanted} took to {@code maxIds} or more.
   */
  static MissedFolds readItems(
      FoldHistory history, long from, long to, Predicate<Fold.ItemKey> wanted, int maxIds) {
    Set<Long> ids = new HashSet<>();
    for (long f = from; f <= to; f++) {
      var items = history.itemsOf(f);
      if (items == null) {
        return new MissedFolds(ids, f, f - 1);
      }
      for (Fold.ItemKey item : items) {
        if (wanted.test(item)) {
          ids.add(item.itemId());
        }
      }
      if (ids.size() >= maxIds) {
        return new MissedFolds(ids, 0, f);
      }
    }
    return new MissedFolds(ids, 0, to);
  }
}
