package io.hotrank.board;

import io.hotrank.HotrankException;
import java.time.Duration;

/**
 * A configured board has no snapshot in any layer that answered: never computed yet, or every
 * source is unreachable. Answered 503 with Retry-After.
 */
public final class BoardUnavailableException extends HotrankException {

  private final Duration retryAfter;

  public BoardUnavailableException(String name, Duration retryAfter) {
    super("Board '" + name + "' has no snapshot available yet");
    this.retryAfter = retryAfter;
  }

  /** When a client should try again. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
