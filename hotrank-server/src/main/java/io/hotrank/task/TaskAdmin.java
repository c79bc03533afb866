package io.hotrank.task;

import io.hotrank.audit.AuditLog;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operators' changes to tasks, each audited (actions {@code task.create}, {@code task.update},
 * {@code task.delete}, {@code task.pause}, {@code task.resume}, {@code task.trigger}, target {@code
 * task:<name>}) in the same transaction as the change: a change that fails leaves no entry, and an
 * entry that cannot be written undoes the change. Used by the admin API and the console. Thread-
 * safe.
 */
@Component
public class TaskAdmin {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final TaskStore store;
  private final TaskEngine engine;
  private final TaskProperties properties;
  private final AuditLog audit;
  private final TransactionTemplate tx;

  TaskAdmin(
      TaskStore store,
      TaskEngine engine,
      TaskProperties properties,
      AuditLog audit,
      PlatformTransactionManager transactions) {
    this.store = store;
    this.engine = engine;
    this.properties = properties;
    this.audit = audit;
    this.tx = new TransactionTemplate(transactions);
  }

  /**
   * Pauses a task: the run in progress finishes; no further run starts until resumed.
   *
   * @param actor the operator's name, for the audit log
   * @param reason why, or null
   * @throws io.hotrank.problem.HotrankException 404 {@code task-not-found} if no such task
   */
  public void pause(String name, String actor, @Nullable String reason) {
    change(name, "task.pause", actor, reason, () -> store.pause(name));
  }

  /**
   * Resumes a paused task (fire times missed meanwhile follow its misfire policy).
   *
   * @throws io.hotrank.problem.HotrankException 404 {@code task-not-found} if no such task
   */
  public void resume(String name, String actor, @Nullable String reason) {
    change(name, "task.resume", actor, reason, () -> store.resume(name));
    engine.wake();
  }

  /**
   * Asks for a run now (after the run in progress, if any), paused or not.
   *
   * @throws io.hotrank.problem.HotrankException 404 {@code task-not-found} if no such task
   */
  public void trigger(String name, String actor, @Nullable String reason) {
    change(name, "task.trigger", actor, reason, () -> store.trigger(name));
    engine.wake();
  }

  /**
   * Creates a task.
   *
   * @return its name
   * @throws TaskConflictException if one of that name exists
   */
  String create(TaskRequest request, String actor, @Nullable String reason) {
    TaskRow task = definitions().create(request, store.nowMillis());
    tx.executeWithoutResult(
        status -> {
          if (!store.insert(task)) {
            throw TaskConflictException.exists(task.name());
          }
          audit.record(actor, "task.create", target(task.name()), reason, null, state(task));
        });
    engine.wake();
    return task.name();
  }

  /**
   * Replaces a task's definition.
   *
   * @throws TaskNotFoundException if no such task
   */
  void update(String name, TaskRequest request, String actor, @Nullable String reason) {
    tx.executeWithoutResult(
        status -> {
          TaskRow current = require(name);
          TaskRow changed = definitions().update(current, request, store.nowMillis());
          boolean rescheduled =
              !Objects.equals(changed.cron(), current.cron())
                  || !changed.zone().equals(current.zone())
                  || !Objects.equals(changed.intervalMs(), current.intervalMs());
          if (!store.update(changed, rescheduled)) {
            throw new TaskNotFoundException(name);
          }
          audit.record(
              actor, "task.update", target(name), reason, state(current), state(require(name)));
        });
    engine.wake();
  }

  /**
   * Deletes a task.
   *
   * @throws TaskConflictException if configuration declares it (it would come back)
   * @throws TaskNotFoundException if no such task
   */
  void delete(String name, String actor, @Nullable String reason) {
    if (engine.declared(name)) {
      throw TaskConflictException.declared(name);
    }
    tx.executeWithoutResult(
        status -> {
          TaskRow current = require(name);
          if (!store.delete(name)) {
            throw new TaskNotFoundException(name);
          }
          audit.record(actor, "task.delete", target(name), reason, state(current), null);
        });
  }

  /** A change of an existing task and its entry, in one transaction. */
  private void change(
      String name,
      String action,
      String actor,
      @Nullable String reason,
      java.util.function.BooleanSupplier update) {
    tx.executeWithoutResult(
        status -> {
          TaskRow before = require(name);
          if (!update.getAsBoolean()) {
            throw new TaskNotFoundException(name);
          }
          audit.record(actor, action, target(name), reason, state(before), state(require(name)));
        });
  }

  private TaskRow require(String name) {
    return store.find(name).orElseThrow(() -> new TaskNotFoundException(name));
  }

  private TaskDefinitions definitions() {
    return new TaskDefinitions(engine.jobs(), properties);
  }

  static String target(String name) {
    return "task:" + name;
  }

  /** What an operator changes of a task, as the audit's before and after. */
  private static Map<String, Object> state(TaskRow task) {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("job", task.job());
    state.put("cron", task.cron());
    state.put("zone", task.cron() == null ? null : task.zone());
    state.put("intervalMs", task.intervalMs());
    state.put("paused", task.paused());
    state.put("triggered", task.triggered());
    state.put("misfire", task.misfire().configName());
    state.put("timeoutMs", task.timeoutMs());
    state.put("maxRetries", task.maxRetries());
    state.put("retryBackoffMs", task.retryBackoffMs());
    state.put("parameters", JSON.readTree(task.parameters()));
    return state;
  }
}
