package io.hotrank.board;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Which of a board's candidates operators must review before the public sees them ({@code
 * hotrank.boards[i].review}): asked by every publish of a board whose review is not {@code off},
 * after the controls are applied and before the entries are numbered, so that a held item is kept
 * in the snapshot's reserve (never shown) and comes back with its score once approved. Implemented
 * by the review module; thread-safe.
 */
public interface BoardReview {

  /**
   * The candidates to keep off the public board: pending review, or rejected.
   *
   * @param board a board whose review is not {@code off}
   * @param key the board's key: its name, or {@code <name>/<segment>} for a segment board
   * @param ranked the candidates the controls leave, in the order the public board would list them
   *     (their ranks are the ranks they would have), blocked ones left out
   * @param record whether this is a publish, which puts what it holds in the review queue; false
   *     for an operator's look at the candidates
   * @throws org.springframework.dao.DataAccessException if the decisions cannot be read: nothing is
   *     published rather than a board that shows what it should hold
   */
  Set<Long> held(
      BoardDefinition board, String key, List<BoardEntry> ranked, Instant now, boolean record);
}
