package io.hotrank.problem;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the violations of one request so that a client learns every problem at once, then
 * refuses the request if there were any. Not thread-safe; one per request.
 */
public final class Violations {

  private final List<FieldViolation> found = new ArrayList<>();

  /** Records a violation of {@code field}. */
  public void add(String field, String message) {
    found.add(new FieldViolation(field, message));
  }

  /** Records a violation of {@code field} when {@code condition} is false; returns condition. */
  public boolean check(boolean condition, String field, String message) {
    if (!condition) {
      add(field, message);
    }
    return condition;
  }

  /** True when nothing has been recorded. */
  public boolean isEmpty() {
    return found.isEmpty();
  }

  /**
   * Throws if anything was recorded.
   *
   * @throws InvalidRequestException listing every violation recorded
   */
  public void throwIfAny() {
    if (!found.isEmpty()) {
      throw new InvalidRequestException(found);
    }
  }
}
