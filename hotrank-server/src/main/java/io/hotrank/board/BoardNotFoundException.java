package io.hotrank.board;

import io.hotrank.HotrankException;

/** No board of this name is configured. Answered 404. */
public final class BoardNotFoundException extends HotrankException {

  public BoardNotFoundException(String name) {
    super("Board '" + name + "' is not configured");
  }
}
