package io.hotrank.cache;

import io.hotrank.HotrankException;

/**
 * A guarded Redis read did not answer: it failed, exceeded the read timeout, or the circuit breaker
 * is open. Callers fall back to the next layer.
 */
public final class RedisUnavailableException extends HotrankException {

  public RedisUnavailableException(String what, String why, Throwable cause) {
    super("Redis read '" + what + "' unavailable: " + why, cause);
  }
}
