package io.hotrank.board;

import io.hotrank.job.StaleFenceException;
import io.hotrank.problem.ProblemType;

/**
 * A computed board was refused at the write: a publisher holding a higher fencing token has
 * published it since this run's lease was granted (this run's lease expired while it was stalled or
 * cut off). Nothing was published; the newer board stays. Never retried. Answered 409.
 */
public final class StalePublishException extends StaleFenceException {

  static final ProblemType TYPE = new ProblemType(409, "stale-publish", "Stale publish");

  public StalePublishException(String board, long fence, String layer) {
    super(
        TYPE,
        "Board '"
            + board
            + "': publish under fence "
            + fence
            + " refused by "
            + layer
            + "; a newer lease holder has published");
  }
}
