package io.hotrank.board.read;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/**
 * A cursor names a board version that is no longer kept ({@code hotrank.board.cursor-ttl} after its
 * publish). Answered 410: the client starts paging again without a cursor.
 */
final class BoardVersionExpiredException extends HotrankException {

  static final ProblemType TYPE =
      new ProblemType(410, "board-version-expired", "Board version expired");

  BoardVersionExpiredException(String board, long version) {
    super(
        TYPE,
        "Version "
            + version
            + " of board '"
            + board
            + "' is no longer kept for paging; start again with an empty cursor (cursor=)");
  }
}
