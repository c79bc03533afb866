package io.hotrank.web;

import org.springframework.core.Ordered;

/**
 * The order of the servlet port's own filters, in one place because each is registered by its own
 * module and a tie would leave their order to bean registration: the body limit first (a header
 * comparison, before anything reads the body or asks Redis), then the rate limits (so that every
 * request under {@code /api/v1/}, the board fast path's included, is counted), then the ingest keys
 * (writes, and reads of actors), then the board fast path, then the admin guard, then idempotency
 * keys; Spring's own filters after all of them.
 */
public final class FilterOrder {

  /** The request body limit ({@code hotrank.web.max-body-size}). */
  public static final int BODY_LIMIT = Ordered.HIGHEST_PRECEDENCE;

  /** The rate limits ({@code hotrank.limits.*}). */
  public static final int RATE_LIMITS = Ordered.HIGHEST_PRECEDENCE + 10;

  /**
   * The ingest keys ({@code hotrank.access.ingest-keys}) required of public writes and actor reads.
   */
  public static final int INGEST_KEYS = Ordered.HIGHEST_PRECEDENCE + 12;

  /** The board fast path, which answers a board read without Spring MVC. */
  public static final int BOARD_FAST_PATH = Ordered.HIGHEST_PRECEDENCE + 15;

  /** The operators' token guard of {@code /api/v1/admin/**} and {@code /actuator/metrics}. */
  public static final int ADMIN_GUARD = Ordered.HIGHEST_PRECEDENCE + 20;

  /**
   * Idempotency keys on writes ({@code Idempotency-Key}): after the guards, so that a request they
   * refuse never claims a key, and before Spring MVC runs the write.
   */
  public static final int IDEMPOTENCY = Ordered.HIGHEST_PRECEDENCE + 25;

  private FilterOrder() {}
}
