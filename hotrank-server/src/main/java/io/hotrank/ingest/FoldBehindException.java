package io.hotrank.ingest;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import java.time.Duration;

/**
 * The fold did not apply every event accepted before a manual recompute or rebuild within {@code
 * hotrank.ingest.fold-barrier-timeout}: nothing was recomputed, and the call is answered 503 with
 * Retry-After rather than with a board that silently misses those events.
 */
public final class FoldBehindException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(503, "fold-behind", "Fold behind");

  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  /**
   * @param timeout the bound that passed
   * @param where where the fold stands, for the problem's detail
   */
  public FoldBehindException(Duration timeout, String where) {
    super(
        TYPE,
        "The fold has not applied every event accepted before this request within "
            + timeout.toMillis()
            + " ms (hotrank.ingest.fold-barrier-timeout; "
            + where
            + "); nothing was recomputed, retry later");
  }

  @Override
  public Problem problem() {
    return super.problem().withRetryAfter(RETRY_AFTER);
  }
}
