package io.hotrank.redis;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import org.jspecify.annotations.Nullable;

/**
 * A guarded Redis read did not answer: it failed, exceeded the read timeout, or the circuit breaker
 * is open. Callers fall back to the next layer; one that cannot answers 503 with Retry-After.
 */
public final class RedisUnavailableException extends HotrankException {

  public RedisUnavailableException(String what, String why, @Nullable Throwable cause) {
    super(ProblemType.STORAGE_UNAVAILABLE, "Redis read '" + what + "' unavailable: " + why, cause);
  }

  @Override
  public Problem problem() {
    return Problem.storageUnavailable();
  }
}
