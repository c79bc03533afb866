package io.hotrank.task;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/** No task of this name exists. Answered 404. */
final class TaskNotFoundException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(404, "task-not-found", "Task not found");

  TaskNotFoundException(String name) {
    super(TYPE, "Task '" + name + "' does not exist");
  }
}
