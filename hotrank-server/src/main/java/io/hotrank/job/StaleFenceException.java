package io.hotrank.job;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/**
 * A job's write was refused because a later lease holder has written (its fencing token is lower
 * than the highest the store has seen): the fence doing its job, not a failure. The run's outcome
 * is {@code rejected}; it is never retried and does not count as a consecutive failure.
 */
public abstract class StaleFenceException extends HotrankException {

  protected StaleFenceException(ProblemType type, String detail) {
    super(type, detail);
  }
}
