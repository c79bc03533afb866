package io.hotrank.cache;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import java.time.Duration;

/**
 * A cache miss had to reach the database and this instance's bulkhead on it stayed full for its
 * whole wait: the read is shed (503 with Retry-After) so that a cold or flushed cache queues or
 * sheds reads instead of saturating the database.
 */
public final class OriginBusyException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(503, "database-busy", "Database busy");

  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  OriginBusyException(String cache) {
    super(
        TYPE,
        "Too many '"
            + cache
            + "' reads are waiting for the database on this instance; retry shortly");
  }

  @Override
  public Problem problem() {
    return super.problem().withRetryAfter(RETRY_AFTER);
  }
}
