package io.hotrank.ingest;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import java.time.Duration;

/**
 * Ingest is not keeping up: appending this batch would pass the bound on waiting events or wait
 * behind a batch that has waited too long already, or the Kafka broker did not take it in time.
 * Nothing of the batch was accepted; answered 503 with Retry-After, at once, so that clients back
 * off instead of piling up.
 */
public final class IngestOverloadedException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(503, "ingest-overloaded", "Ingest overloaded");

  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  /**
   * @param reason what is not keeping up, for the problem's detail
   */
  public IngestOverloadedException(String reason) {
    super(
        TYPE,
        "Ingest is not keeping up ("
            + reason
            + "); nothing of this batch was"
            + " accepted, retry it later");
  }

  @Override
  public Problem problem() {
    return super.problem().withRetryAfter(RETRY_AFTER);
  }
}
