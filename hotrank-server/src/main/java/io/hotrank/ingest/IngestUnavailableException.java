package io.hotrank.ingest;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import java.time.Duration;

/**
 * The event source's cluster (Kafka) did not answer a question about where ingest stands in time:
 * answered 503 with Retry-After. Nothing was changed.
 */
public final class IngestUnavailableException extends HotrankException {

  static final ProblemType TYPE =
      new ProblemType(503, "ingest-unavailable", "Event source unavailable");

  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  /**
   * @param reason what did not answer, for the problem's detail
   */
  public IngestUnavailableException(String reason, Throwable cause) {
    super(TYPE, "The event source did not answer (" + reason + "); retry later", cause);
  }

  @Override
  public Problem problem() {
    return super.problem().withRetryAfter(RETRY_AFTER);
  }
}
