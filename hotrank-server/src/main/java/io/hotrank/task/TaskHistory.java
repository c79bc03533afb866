package io.hotrank.task;

/**
 * Which runs the task platform keeps ({@code hotrank.task.history}), and where a finished run goes.
 *
 * <ul>
 *   <li>{@link #ALL}: every run, in {@code hr_task_run}, for {@code history-retention};
 *   <li>{@link #FAILURES} (the default): every run that did not succeed (failed, timed out,
 *       cancelled, rejected, abandoned, and fire times skipped) in {@code hr_task_run}, and the
 *       last {@code history-keep} successful runs of each task in a ring of that many rows per task
 *       ({@code hr_task_recent}), overwritten in place;
 *   <li>{@link #NONE}: no history; a task's row still says its state and consecutive failures.
 * </ul>
 *
 * Each kept run is written in its completion's transaction, so a run the history promises is never
 * lost to a crash.
 */
public enum TaskHistory {
  ALL,
  FAILURES,
  NONE;

  /** Where a run of {@code outcome} is written. */
  Destination destination(String outcome) {
    return switch (this) {
      case ALL -> Destination.RUNS;
      case FAILURES -> outcome.equals("succeeded") ? Destination.RECENT : Destination.RUNS;
      case NONE -> Destination.NOWHERE;
    };
  }

  /** Whether any run's history row goes to the table {@code destination} names. */
  boolean writesTo(Destination destination) {
    // Where a run goes depends only on whether it succeeded.
    return destination != Destination.NOWHERE
        && (destination("succeeded") == destination || destination("failed") == destination);
  }

  /** Whether abandoned runs and skipped fire times are recorded. */
  boolean keepsFailures() {
    return this != NONE;
  }

  /** The setting's value, as written in configuration. */
  String configName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** What the history keeps, in a sentence for the console and the API. */
  String describe(int keep) {
    return switch (this) {
      case ALL -> "every run";
      case FAILURES -> "every run that did not succeed, and the last " + keep + " successful runs";
      case NONE -> "no runs";
    };
  }

  /** Where a finished run is written. */
  enum Destination {
    /** {@code hr_task_run}, a row of its own. */
    RUNS,
    /** {@code hr_task_recent}, over the task's oldest slot. */
    RECENT,
    NOWHERE
  }
}
