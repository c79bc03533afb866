package io.hotrank.board;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import java.time.Duration;

/**
 * A configured board has no snapshot in any layer that answered: never computed yet, or every
 * source is unreachable. Answered 503 with Retry-After.
 */
public final class BoardUnavailableException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(503, "board-unavailable", "Board unavailable");

  private final Duration retryAfter;

  public BoardUnavailableException(String name, Duration retryAfter) {
    super(TYPE, "Board '" + name + "' has no snapshot available yet");
    this.retryAfter = retryAfter;
  }

  /** When a client should try again. */
  public Duration retryAfter() {
    return retryAfter;
  }

  @Override
  public Problem problem() {
    return super.problem().withRetryAfter(retryAfter);
  }
}
