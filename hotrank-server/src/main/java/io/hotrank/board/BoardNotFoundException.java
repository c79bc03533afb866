package io.hotrank.board;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/** No board of this name is configured. Answered 404. */
public final class BoardNotFoundException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(404, "board-not-found", "Board not found");

  public BoardNotFoundException(String name) {
    super(TYPE, "Board '" + name + "' is not configured");
  }
}
