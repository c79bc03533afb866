package io.hotrank.web;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/**
 * An operator called an admin endpoint their role does not allow. Answered 403; the detail names
 * the role needed and the operator's.
 */
public final class ForbiddenException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(403, "forbidden", "Forbidden");

  ForbiddenException(Operator operator, Role needed) {
    super(
        TYPE,
        "This call needs role '"
            + needed.configName()
            + "'; operator '"
            + operator.name()
            + "' has role '"
            + operator.role().configName()
            + "'");
  }
}
