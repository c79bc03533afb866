package io.hotrank.trust;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/** No actor has this user id: the platform never sent it and no operator flagged it. 404. */
final class ActorNotFoundException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(404, "actor-not-found", "Actor not found");

  ActorNotFoundException(long userId) {
    super(TYPE, "No actor has the user id " + userId);
  }
}
