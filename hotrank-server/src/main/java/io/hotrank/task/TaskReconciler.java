package io.hotrank.task;

import io.hotrank.job.JobDefinition;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the task rows of the jobs configured with {@code engine: task} match their configuration at
 * startup: a missing row is created (never silently absent), a row whose configured schedule
 * changed gets the new one, and the row of a job no longer configured so is removed. Pause state,
 * retries and history are kept; a row an operator changed over the admin API ({@code source = api})
 * is left as the operator set it.
 */
final class TaskReconciler {

  private static final Logger log = LoggerFactory.getLogger(TaskReconciler.class);

  private final TaskStore store;
  private final TaskProperties defaults;
  private final long now;

  TaskReconciler(TaskStore store, TaskProperties defaults, long now) {
    this.store = store;
    this.defaults = defaults;
    this.now = now;
  }

  void reconcile(Map<String, JobDefinition> declared) {
    declared.forEach(
        (name, definition) ->
            reconcile(name, definition.cron() == null ? null : definition.cron().toString()));
    // A job moved back to the lease engine must not also run here: its task goes (its history
    // stays in hr_task_run, and the task comes back if the job moves here again).
    for (TaskRow row : store.all()) {
      if (row.source().equals(TaskRow.FROM_CONFIG)
          && !declared.containsKey(row.name())
          && !row.running()
          && store.delete(row.name())) {
        log.info(
            "Task '{}' removed: its job is no longer configured with engine: task", row.name());
      }
    }
  }

  private void reconcile(String name, @Nullable String cron) {
    TaskRow wanted =
        TaskRow.definition(
            name,
            name,
            cron,
            "UTC",
            null,
            false,
            Schedule.of(cron, "UTC", null).next(now),
            Misfire.SKIP,
            defaults.timeout().toMillis(),
            defaults.maxRetries(),
            defaults.retryBackoff().toMillis(),
            "{}",
            TaskRow.FROM_CONFIG);
    Optional<TaskRow> found = store.find(name);
    if (found.isEmpty()) {
      if (store.insert(wanted)) {
        log.info("Task '{}' created for its job ({})", name, describe(cron));
      }
      return;
    }
    TaskRow row = found.get();
    if (!row.source().equals(TaskRow.FROM_CONFIG)) {
      log.info(
          "Task '{}' kept as changed over the admin API ({}); its configuration says {}",
          name,
          describe(row.cron()),
          describe(cron));
      return;
    }
    if (Objects.equals(row.cron(), cron)
        && row.zone().equals("UTC")
        && row.intervalMs() == null
        && row.job().equals(name)) {
      return;
    }
    store.update(
        TaskRow.definition(
            name,
            name,
            cron,
            "UTC",
            null,
            row.paused(),
            wanted.nextTime(),
            row.misfire(),
            row.timeoutMs(),
            row.maxRetries(),
            row.retryBackoffMs(),
            row.parameters(),
            TaskRow.FROM_CONFIG),
        true);
    log.info("Task '{}' rescheduled from {} to {}", name, describe(row.cron()), describe(cron));
  }

  private static String describe(@Nullable String cron) {
    return cron == null ? "on demand only" : "cron '" + cron + "' UTC";
  }
}
