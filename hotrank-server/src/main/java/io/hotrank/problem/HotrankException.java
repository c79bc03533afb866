package io.hotrank.problem;

import org.jspecify.annotations.Nullable;

/**
 * The root of every exception hotrank throws on purpose. Each subclass names the instance it refers
 * to (a board, an item) and describes its own RFC 9457 problem through {@link #problem()}: status,
 * type, title, detail, field errors and headers such as {@code Retry-After}. The HTTP edges render
 * that description and nothing else, so a new capability adds an exception, never a handler.
 */
public abstract class HotrankException extends RuntimeException {

  private final ProblemType type;

  protected HotrankException(ProblemType type, String message) {
    super(message);
    this.type = type;
  }

  protected HotrankException(ProblemType type, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.type = type;
  }

  /** The kind of problem this is. */
  public final ProblemType type() {
    return type;
  }

  /**
   * The problem this exception answers. The default carries the message as detail; subclasses add
   * field errors or headers.
   */
  public Problem problem() {
    return Problem.of(type, getMessage());
  }
}
