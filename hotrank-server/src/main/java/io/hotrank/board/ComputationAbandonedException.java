package io.hotrank.board;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;

/**
 * A board computation was stopped before publishing (shutdown); nothing was published. Answered 503
 * with Retry-After: another instance, or this one after its restart, will compute it.
 */
public final class ComputationAbandonedException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(503, "shutting-down", "Shutting down");

  public ComputationAbandonedException(String what) {
    super(TYPE, "Computation of '" + what + "' abandoned before publishing");
  }

  @Override
  public Problem problem() {
    return super.problem().withRetryAfter(Problem.DEFAULT_RETRY_AFTER);
  }
}
