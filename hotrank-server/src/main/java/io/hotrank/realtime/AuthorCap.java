package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code max-per-author} on realtime boards and families: a capped board reads {@link #DEPTH} times
 * its size of candidates more from Redis (a live set keeps as many more members), and its
 * candidates are taken best first, skipping an author who has the cap already, so that the next
 * best items take the skipped ones' places. A board whose best {@code DEPTH x size} items are that
 * concentrated shows fewer entries than its size until they spread.
 */
final class AuthorCap {

  /** How many times its size a capped board reads beyond what it would read uncapped. */
  static final int DEPTH = 3;

  private AuthorCap() {}

  /** The candidates a capped board reads beyond an uncapped one's; 0 when it is not capped. */
  static int extra(BoardDefinition board) {
    return board.maxPerAuthor() > 0 ? DEPTH * board.size() : 0;
  }

  /**
   * The best {@code wanted} candidates with at most the board's cap per author, ranked again from
   * 1; the candidates unchanged when the board is not capped.
   *
   * @param best candidates best first
   */
  static List<BoardEntry> cap(BoardDefinition board, List<BoardEntry> best, int wanted) {
    int cap = board.maxPerAuthor();
    if (cap <= 0) {
      return best.size() > wanted ? best.subList(0, wanted) : best;
    }
    Map<Long, Integer> taken = new HashMap<>();
    List<BoardEntry> kept = new ArrayList<>(Math.min(wanted, best.size()));
    for (BoardEntry entry : best) {
      if (kept.size() == wanted) {
        break;
      }
      if (taken.merge(entry.authorId(), 1, Integer::sum) <= cap) {
        kept.add(entry.withRank(kept.size() + 1));
      }
    }
    return kept;
  }
}
