package io.hotrank.task;

import io.hotrank.audit.AuditLog;
import io.hotrank.lock.InstanceId;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/**
 * The task platform's admin API under {@code /api/v1/admin/tasks}: list and the run history (any
 * operator), pause, resume, trigger (role operator), create, change, delete (role admin); each
 * change is audited ({@link TaskAdmin}) with the optional {@code ?reason=}. Every instance answers
 * the same: it all lives in the database.
 */
@RestController
@RequestMapping("/api/v1/admin/tasks")
class TaskAdminController {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int MAX_LIMIT = 500;

  /**
   * The deepest page: a page is merged from the run table and the ring in memory ({@link
   * TaskStore#runs}), so its offset is bounded.
   */
  private static final int MAX_OFFSET = 10_000;

  private final TaskStore store;
  private final TaskAdmin admin;
  private final TaskProperties properties;
  private final InstanceId instance;

  TaskAdminController(
      TaskStore store, TaskAdmin admin, TaskProperties properties, InstanceId instance) {
    this.store = store;
    this.admin = admin;
    this.properties = properties;
    this.instance = instance;
  }

  /** Every task, with the instance that answered. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "TaskList")
  record TaskList(String instance, List<TaskView> tasks) {}

  /**
   * A task as the API shows it.
   *
   * @param zone the cron's time zone; null for an interval task
   * @param interval the interval, such as {@code 5000ms}; null for a cron task
   * @param nextFireTime null when it never fires again (paused without a schedule)
   * @param owner the instance running it now; null when idle
   * @param parameters the job's parameters as given
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "Task")
  record TaskView(
      String name,
      String job,
      @Nullable String cron,
      @Nullable String zone,
      @Nullable String interval,
      String status,
      boolean paused,
      boolean triggered,
      @Nullable Instant nextFireTime,
      @Nullable String owner,
      long fence,
      @Nullable Instant runningSince,
      @Nullable Long heartbeatAgeMs,
      boolean stale,
      int attempt,
      int consecutiveFailures,
      String misfire,
      long timeoutMs,
      int maxRetries,
      long retryBackoffMs,
      @Schema(description = "The job's parameters as given: a JSON object") Object parameters,
      String source,
      Tasks.@Nullable Run lastRun) {}

  /** A page of a task's runs, and what the history keeps. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "TaskRunPage")
  record Runs(String task, int limit, int offset, History history, List<Tasks.Run> runs) {}

  /**
   * What the run history keeps ({@code hotrank.tasks.history}).
   *
   * @param keep how many failures are kept, for {@code failures}; null otherwise
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "TaskHistory")
  record History(String mode, @Nullable Integer keep, String kept) {}

  @GetMapping
  TaskList list() {
    Map<String, TaskRun> last = store.lastRuns();
    long now = store.nowMillis();
    return new TaskList(
        instance.value(),
        store.all().stream().map(task -> view(task, last.get(task.name()), now)).toList());
  }

  @GetMapping("/{name}")
  TaskView get(@PathVariable String name) {
    return current(name);
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "201",
      description = "The task, created; Location names it",
      useReturnTypeSchema = true)
  @AdminAction(Role.ADMIN)
  @PostMapping
  ResponseEntity<TaskView> create(
      @RequestBody TaskRequest request,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    String name = admin.create(request, operator.name(), AuditLog.reason(reason));
    return ResponseEntity.created(URI.create("/api/v1/admin/tasks/" + name)).body(current(name));
  }

  @AdminAction(Role.ADMIN)
  @PutMapping("/{name}")
  TaskView update(
      @PathVariable String name,
      @RequestBody TaskRequest request,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    admin.update(name, request, operator.name(), AuditLog.reason(reason));
    return current(name);
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "204",
      description = "Deleted")
  @AdminAction(Role.ADMIN)
  @DeleteMapping("/{name}")
  ResponseEntity<Void> delete(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    admin.delete(name, operator.name(), AuditLog.reason(reason));
    return ResponseEntity.noContent().build();
  }

  @AdminAction(Role.OPERATOR)
  @PostMapping("/{name}/pause")
  TaskView pause(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    admin.pause(name, operator.name(), AuditLog.reason(reason));
    return current(name);
  }

  @AdminAction(Role.OPERATOR)
  @PostMapping("/{name}/resume")
  TaskView resume(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    admin.resume(name, operator.name(), AuditLog.reason(reason));
    return current(name);
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "202",
      description = "The task, triggered: it runs once as soon as a slot is free",
      useReturnTypeSchema = true)
  @AdminAction(Role.OPERATOR)
  @PostMapping("/{name}/trigger")
  ResponseEntity<TaskView> trigger(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    admin.trigger(name, operator.name(), AuditLog.reason(reason));
    return ResponseEntity.accepted().body(current(name));
  }

  @GetMapping("/{name}/runs")
  Runs runs(
      @PathVariable String name,
      // Read as text, so that a malformed one gets this module's own message.
      @io.swagger.v3.oas.annotations.Parameter(
              schema = @Schema(type = "integer", minimum = "1", defaultValue = "20"))
          @RequestParam(defaultValue = "20")
          String limit,
      @io.swagger.v3.oas.annotations.Parameter(
              schema = @Schema(type = "integer", minimum = "0", defaultValue = "0"))
          @RequestParam(defaultValue = "0")
          String offset) {
    int pageSize = intParam("limit", limit, 1, MAX_LIMIT);
    int skip = intParam("offset", offset, 0, MAX_OFFSET);
    if (store.find(name).isEmpty()) {
      throw new TaskNotFoundException(name);
    }
    History history =
        new History(
            store.history().configName(),
            store.history() == TaskHistory.FAILURES ? store.historyKeep() : null,
            store.history().describe(store.historyKeep()));
    return new Runs(
        name,
        pageSize,
        skip,
        history,
        store.runs(name, pageSize, skip).stream().map(Tasks::run).toList());
  }

  private TaskView current(String name) {
    TaskRow task = store.find(name).orElseThrow(() -> new TaskNotFoundException(name));
    List<TaskRun> last = store.runs(name, 1, 0);
    return view(task, last.isEmpty() ? null : last.getFirst(), store.nowMillis());
  }

  private static int intParam(String field, String text, int min, int max) {
    try {
      int value = Integer.parseInt(text);
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new InvalidRequestException(
        field,
        "must be an integer from " + min + (max == Integer.MAX_VALUE ? " up" : " to " + max));
  }

  private TaskView view(TaskRow task, @Nullable TaskRun last, long now) {
    boolean running = task.running();
    return new TaskView(
        task.name(),
        task.job(),
        task.cron(),
        task.cron() == null ? null : task.zone(),
        task.intervalMs() == null ? null : task.intervalMs() + "ms",
        task.status(),
        task.paused(),
        task.triggered(),
        task.nextTime() >= Schedule.NEVER ? null : Instant.ofEpochMilli(task.nextTime()),
        running ? task.owner() : null,
        task.version(),
        running ? Instant.ofEpochMilli(task.startedAt()) : null,
        running ? Math.max(0, now - task.heartbeat()) : null,
        running && now - task.heartbeat() > properties.heartbeatTimeout().toMillis(),
        task.attempt(),
        task.consecutiveFailures(),
        task.misfire().configName(),
        task.timeoutMs(),
        task.maxRetries(),
        task.retryBackoffMs(),
        JSON.readTree(task.parameters()),
        task.source(),
        last == null ? null : Tasks.run(last));
  }
}
