package io.hotrank.job;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import org.jspecify.annotations.Nullable;

/**
 * A run was not started: another instance holds the job's lease, or the cycle was run already.
 * Answered 409 with Retry-After when asked for over HTTP.
 */
public final class JobBusyException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(409, "job-busy", "Job busy");

  public JobBusyException(String job, @Nullable String holder) {
    super(
        TYPE,
        holder == null
            ? "Job '" + job + "' did not get its lease (its cycle ran already, or it was taken)"
            : "Job '" + job + "' is running under instance '" + holder + "'s lease");
  }

  @Override
  public Problem problem() {
    return super.problem().withRetryAfter(Problem.DEFAULT_RETRY_AFTER);
  }
}
