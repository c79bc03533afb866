package io.hotrank.ingest;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import java.time.Duration;

/**
 * A batch's write ended without an answer: the database connection broke after the batch was sent
 * (the commit's acknowledgement lost with it), or the write outlasted the request's wait. The batch
 * may have been applied or not; answered 503 with Retry-After and a type of its own, so that a
 * client can tell it from the refusals that applied nothing ({@code ingest-overloaded}, {@code
 * storage-unavailable}) and knows that resending it may count it twice.
 */
public final class IngestOutcomeUnknownException extends HotrankException {

  static final ProblemType TYPE =
      new ProblemType(503, "ingest-outcome-unknown", "Ingest outcome unknown");

  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  /**
   * @param reason what broke, for the problem's detail
   */
  public IngestOutcomeUnknownException(String reason, Throwable cause) {
    super(
        TYPE,
        "The batch may or may not have been applied ("
            + reason
            + "); resending it may count it twice",
        cause);
  }

  @Override
  public Problem problem() {
    return super.problem().withRetryAfter(RETRY_AFTER);
  }
}
