package io.hotrank.console;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;

/**
 * A console action the signed-in operator's role does not allow: the page shows this detail with
 * status 403, whatever buttons the page offered (a viewer is offered none, but a POST can be made
 * by hand).
 */
final class ConsoleForbiddenException extends HotrankException {

  static final ProblemType FORBIDDEN = new ProblemType(403, "forbidden", "Forbidden");

  private ConsoleForbiddenException(String message) {
    super(FORBIDDEN, message);
  }

  /**
   * Refuses unless {@code operator}'s role allows {@code needed}.
   *
   * @throws ConsoleForbiddenException naming both roles
   */
  static void require(Operator operator, Role needed) {
    if (!operator.role().allows(needed)) {
      throw new ConsoleForbiddenException(
          "This action needs the role '"
              + needed.configName()
              + "'; operator '"
              + operator.name()
              + "' has '"
              + operator.role().configName()
              + "'");
    }
  }
}
