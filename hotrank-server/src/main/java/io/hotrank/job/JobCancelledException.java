package io.hotrank.job;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;

/**
 * A run stopped before finishing because its lease was lost or the service is shutting down;
 * nothing past its last safe point was written. Answered 503 with Retry-After when asked for over
 * HTTP.
 */
public final class JobCancelledException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(503, "job-cancelled", "Job cancelled");

  public JobCancelledException(String job) {
    super(TYPE, "Job '" + job + "' was cancelled (lease lost or shutting down)");
  }

  @Override
  public Problem problem() {
    return super.problem().withRetryAfter(Problem.DEFAULT_RETRY_AFTER);
  }
}
