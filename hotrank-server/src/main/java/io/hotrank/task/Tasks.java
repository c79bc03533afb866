package io.hotrank.task;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The task platform as the operator console sees it: every task with its state and last run, a
 * task's run history, (its actions go through {@link TaskAdmin}, as the admin API's do, so they are
 * audited). Every instance answers the same: it all lives in the database. Thread-safe.
 */
@Component
public class Tasks {

  /**
   * One task.
   *
   * @param schedule its cron and zone, or its interval
   * @param status {@code waiting}, {@code running} or {@code paused}
   * @param nextFireTime when it fires next; null when it never will
   * @param owner the instance running it now; null when not running
   * @param lastRun its last finished, abandoned or skipped run; null before the first
   */
  public record Summary(
      String name,
      String job,
      String schedule,
      String status,
      boolean paused,
      boolean triggered,
      @Nullable Instant nextFireTime,
      @Nullable String owner,
      int consecutiveFailures,
      String source,
      @Nullable Run lastRun) {}

  /**
   * One run of a task.
   *
   * @param id the run's row in the history; null for a successful run kept in its task's ring of
   *     recent runs ({@code hotrank.task.history=failures})
   * @param trigger {@code schedule} or {@code request}
   * @param error why it failed; null when it did not
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "TaskRun")
  public record Run(
      @Nullable Long id,
      Instant fireTime,
      Instant startedAt,
      Instant endedAt,
      long durationMs,
      String outcome,
      String owner,
      long fence,
      int attempt,
      @io.swagger.v3.oas.annotations.media.Schema(allowableValues = {"request", "schedule"})
          String trigger,
      @Nullable String error) {}

  private final TaskStore store;

  Tasks(TaskStore store) {
    this.store = store;
  }

  /** Every task, in the store's order, each with its last run. */
  public List<Summary> all() {
    Map<String, TaskRun> last = store.lastRuns();
    return store.all().stream().map(task -> summary(task, last.get(task.name()))).toList();
  }

  /**
   * Which runs the history keeps ({@code hotrank.task.history}), as a sentence: "every run that did
   * not succeed, and the last 20 successful runs", say.
   */
  public String history() {
    return "hotrank.task.history="
        + store.history().configName()
        + ": "
        + store.history().describe(store.historyKeep());
  }

  /**
   * A task's runs, newest first.
   *
   * @throws io.hotrank.problem.HotrankException a {@code task-not-found} problem if there is no
   *     such task
   */
  public List<Run> runs(String name, int limit) {
    if (store.find(name).isEmpty()) {
      throw new TaskNotFoundException(name);
    }
    return store.runs(name, limit, 0).stream().map(Tasks::run).toList();
  }

  private static Summary summary(TaskRow task, @Nullable TaskRun last) {
    String schedule =
        task.cron() != null
            ? task.cron() + " (" + task.zone() + ")"
            : "every " + task.intervalMs() + " ms";
    return new Summary(
        task.name(),
        task.job(),
        schedule,
        task.status(),
        task.paused(),
        task.triggered(),
        task.nextTime() >= Schedule.NEVER ? null : Instant.ofEpochMilli(task.nextTime()),
        task.running() ? task.owner() : null,
        task.consecutiveFailures(),
        task.source(),
        last == null ? null : run(last));
  }

  static Run run(TaskRun run) {
    return new Run(
        run.id(),
        Instant.ofEpochMilli(run.fireTime()),
        Instant.ofEpochMilli(run.startedAt()),
        Instant.ofEpochMilli(run.endedAt()),
        run.endedAt() - run.startedAt(),
        run.outcome(),
        run.owner(),
        run.fence(),
        run.attempt(),
        run.manual() ? "request" : "schedule",
        run.error());
  }
}
