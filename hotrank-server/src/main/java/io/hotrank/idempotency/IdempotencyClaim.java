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
  private volatile boolean decidedByTransaction;
  private volatile boolean nothingApplied;

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

  /**
   * A prefix of event ids ({@code k<40 hex digits>:}) that is the same for every retry of this
   * request and differs between keys and clients.
   */
  public String eventIdPrefix() {
    return "k" + id.substring(0, 40) + ":";
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

  /**
   * Says that the write records its answer in the transaction that writes it, if it writes at all:
   * then a key still pending after the request failed belongs to a write that did not happen, and
   * is freed for the retry.
   */
  public void decidedByTransaction() {
    decidedByTransaction = true;
  }

  /** Says that the request failed before writing anything: its key is freed for the retry. */
  public void nothingApplied() {
    nothingApplied = true;
  }

  /** Whether a failed request's key may be freed: nothing of it can have been written. */
  boolean freeOnFailure() {
    return decidedByTransaction || nothingApplied;
  }

  @Override
  public String toString() {
    return "IdempotencyClaim[" + id.substring(0, 12) + "]";
  }
}
