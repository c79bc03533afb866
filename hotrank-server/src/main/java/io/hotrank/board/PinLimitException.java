package io.hotrank.board;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/**
 * A pin was refused: the board holds as many live pins as {@code hotrank.boards[i].max-pins}
 * allows. Moving an item already pinned is not a new pin. Nothing was changed. Answered 409.
 */
public final class PinLimitException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(409, "pin-limit", "Pin limit reached");

  public PinLimitException(String board, int maxPins) {
    super(
        TYPE,
        "Board '"
            + board
            + "' has "
            + maxPins
            + " pins already, its limit (hotrank.boards[i].max-pins); remove one first");
  }
}
