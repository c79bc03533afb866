package io.hotrank.idempotency;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * A request's hold on its idempotency key while it runs: an attribute of the request, which a write
 * to the database hands to {@link IdempotentAnswers} to record its answer in its own transaction.
 * Thread-safe: the event log's writer threads record on a request's behalf.
 */
public final class IdempotencyClaim {

  private static final String ATTRIBUTE = IdempotencyClaim.class.getName();

  private final String id;
  private final String token;
  private volatile boolean recorded;

  IdempotencyClaim(String id, String token) {
    this.id = id;
    this.token = token;
  }

  /** The claim of the request, or null when it carries no key. */
  public static @Nullable IdempotencyClaim of(ServletRequest request) {
    return (IdempotencyClaim) request.getAttribute(ATTRIBUTE);
  }

  void attachTo(ServletRequest request) {
    request.setAttribute(ATTRIBUTE, this);
  }

  String id() {
    return id;
  }

  String token() {
    return token;
  }

  /** Whether the answer was recorded by the write itself. */
  boolean recorded() {
    return recorded;
  }

  void markRecorded() {
    recorded = true;
  }

  @Override
  public String toString() {
    return "IdempotencyClaim[" + id.substring(0, 12) + "]";
  }
}
