package io.hotrank.web;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import org.jspecify.annotations.Nullable;

/**
 * A request body over {@code hotrank.web.max-body-size}. Answered 413 with {@code Connection:
 * close}: the rest of the body is never read, so the connection cannot carry another request.
 */
final class BodyTooLargeException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(413, "body-too-large", "Request body too large");

  BodyTooLargeException(long limit) {
    super(
        TYPE,
        "The request body is larger than the limit of "
            + limit
            + " bytes (hotrank.web.max-body-size)");
  }

  @Override
  public Problem problem() {
    return super.problem().withHeader("Connection", "close");
  }

  /** This exception among {@code e} and its causes, or null: readers wrap what a stream throws. */
  static @Nullable BodyTooLargeException in(@Nullable Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BodyTooLargeException tooLarge) {
        return tooLarge;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }
}
