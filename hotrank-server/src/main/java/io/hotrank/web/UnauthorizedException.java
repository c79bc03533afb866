package io.hotrank.web;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;

/**
 * An admin endpoint was called without an operator's bearer token, or a write without an ingest key
 * when those are required. Answered 401.
 */
public final class UnauthorizedException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(401, "unauthorized", "Unauthorized");

  public UnauthorizedException(String message) {
    super(TYPE, message);
  }

  @Override
  public Problem problem() {
    return super.problem().withHeader("WWW-Authenticate", "Bearer realm=\"hotrank-admin\"");
  }
}
