package io.hotrank.problem;

import java.util.List;
import java.util.Map;

/**
 * A request whose content is invalid: answered 400 with every violation listed. Nothing of the
 * request has been applied when this is thrown.
 */
public final class InvalidRequestException extends HotrankException {

  private final List<FieldViolation> violations;

  public InvalidRequestException(List<FieldViolation> violations) {
    super(ProblemType.INVALID_REQUEST, summary(violations));
    this.violations = List.copyOf(violations);
  }

  public InvalidRequestException(String field, String message) {
    this(List.of(new FieldViolation(field, message)));
  }

  /** The violations, in the order they were found. */
  public List<FieldViolation> violations() {
    return violations;
  }

  @Override
  public Problem problem() {
    return new Problem(type(), getMessage(), violations, Map.of());
  }

  private static String summary(List<FieldViolation> violations) {
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("an invalid request needs at least one violation");
    }
    FieldViolation first = violations.getFirst();
    String more = violations.size() > 1 ? " (and " + (violations.size() - 1) + " more)" : "";
    return first.field() + ": " + first.message() + more;
  }
}
