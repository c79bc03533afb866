package io.hotrank.board;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/**
 * A second chance was refused: the item has had its one second chance on the board. Nothing was
 * changed. Answered 409.
 */
public final class SecondChanceUsedException extends HotrankException {

  static final ProblemType TYPE =
      new ProblemType(409, "second-chance-used", "Second chance used already");

  public SecondChanceUsedException(String board, long itemId) {
    super(
        TYPE,
        "Item "
            + itemId
            + " has had its second chance on board '"
            + board
            + "' already: an item gets one per board");
  }
}
