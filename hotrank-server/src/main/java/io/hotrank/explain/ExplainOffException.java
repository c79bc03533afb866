package io.hotrank.explain;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/** The board does not explain its items ({@code hotrank.boards[i].explain=off}). Answered 404. */
final class ExplainOffException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(404, "explain-off", "Explanations are off");

  ExplainOffException(String board) {
    super(TYPE, "Board '" + board + "' does not explain its items (hotrank.boards[i].explain=off)");
  }
}
