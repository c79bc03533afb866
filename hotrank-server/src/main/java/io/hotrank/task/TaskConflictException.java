package io.hotrank.task;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/** A task change that contradicts what exists. Answered 409; nothing was changed. */
final class TaskConflictException extends HotrankException {

  static final ProblemType EXISTS = new ProblemType(409, "task-exists", "Task exists");

  static final ProblemType DECLARED =
      new ProblemType(409, "task-declared", "Task declared in configuration");

  private TaskConflictException(ProblemType type, String detail) {
    super(type, detail);
  }

  static TaskConflictException exists(String name) {
    return new TaskConflictException(EXISTS, "Task '" + name + "' exists; change it with PUT");
  }

  static TaskConflictException declared(String name) {
    return new TaskConflictException(
        DECLARED,
        "Task '"
            + name
            + "' is the task of a job configured with engine: task and would be created again at"
            + " the next start; pause it instead, or set the job's engine back to lease");
  }
}
