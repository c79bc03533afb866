package io.hotrank.ingest;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import java.time.Duration;

/**
 * The event log is not keeping up: appending this batch would pass the bound on waiting events or
 * wait behind a batch that has waited too long already. Nothing of the batch was appended; answered
 * 503 with Retry-After, at once, so that clients back off instead of piling up.
 */
final class IngestOverloadedException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(503, "ingest-overloaded", "Ingest overloaded");

  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  IngestOverloadedException(String reason) {
    super(
        TYPE,
        "The event log is not keeping up ("
            + reason
            + "); nothing of this batch was"
            + " accepted, retry it later");
  }

  @Override
  public Problem problem() {
    return super.problem().withRetryAfter(RETRY_AFTER);
  }
}
