package io.hotrank.task;

import io.hotrank.audit.AuditLog;
import io.hotrank.lock.InstanceId;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
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

  @GetMapping
  Map<String, Object> list() {
    Map<String, TaskRun> last = store.lastRuns();
    long now = store.nowMillis();
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("instance", instance.value());
    view.put(
        "tasks", store.all().stream().map(task -> view(task, last.get(task.name()), now)).toList());
    return view;
  }

  @GetMapping("/{name}")
  Map<String, Object> get(@PathVariable String name) {
    return current(name);
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "201",
      description = "The task, created; Location names it",
      useReturnTypeSchema = true)
  @AdminAction(Role.ADMIN)
  @PostMapping
  ResponseEntity<Map<String, Object>> create(
      @RequestBody TaskRequest request,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    String name = admin.create(request, operator.name(), AuditLog.reason(reason));
    return ResponseEntity.created(URI.create("/api/v1/admin/tasks/" + name)).body(current(name));
  }

  @AdminAction(Role.ADMIN)
  @PutMapping("/{name}")
  Map<String, Object> update(
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
  Map<String, Object> pause(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    admin.pause(name, operator.name(), AuditLog.reason(reason));
    return current(name);
  }

  @AdminAction(Role.OPERATOR)
  @PostMapping("/{name}/resume")
  Map<String, Object> resume(
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
  ResponseEntity<Map<String, Object>> trigger(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    admin.trigger(name, operator.name(), AuditLog.reason(reason));
    return ResponseEntity.accepted().body(current(name));
  }

  @GetMapping("/{name}/runs")
  Map<String, Object> runs(
      @PathVariable String name,
      @RequestParam(defaultValue = "20") String limit,
      @RequestParam(defaultValue = "0") String offset) {
    int pageSize = intParam("limit", limit, 1, MAX_LIMIT);
    int skip = intParam("offset", offset, 0, MAX_OFFSET);
    if (store.find(name).isEmpty()) {
      throw new TaskNotFoundException(name);
    }
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("task", name);
    view.put("limit", pageSize);
    view.put("offset", skip);
    Map<String, Object> history = new LinkedHashMap<>();
    history.put("mode", store.history().configName());
    history.put("keep", store.history() == TaskHistory.FAILURES ? store.historyKeep() : null);
    history.put("kept", store.history().describe(store.historyKeep()));
    view.put("history", history);
    view.put(
        "runs", store.runs(name, pageSize, skip).stream().map(TaskAdminController::run).toList());
    return view;
  }

  private Map<String, Object> current(String name) {
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

  private Map<String, Object> view(TaskRow task, @Nullable TaskRun last, long now) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("name", task.name());
    view.put("job", task.job());
    view.put("cron", task.cron());
    view.put("zone", task.cron() == null ? null : task.zone());
    view.put("interval", task.intervalMs() == null ? null : task.intervalMs() + "ms");
    view.put("status", task.status());
    view.put("paused", task.paused());
    view.put("triggered", task.triggered());
    view.put("nextFireTime", task.nextTime() >= Schedule.NEVER ? null : time(task.nextTime()));
    boolean running = task.running();
    view.put("owner", running ? task.owner() : null);
    view.put("fence", task.version());
    view.put("runningSince", running ? time(task.startedAt()) : null);
    view.put("heartbeatAgeMs", running ? Math.max(0, now - task.heartbeat()) : null);
    view.put("stale", running && now - task.heartbeat() > properties.heartbeatTimeout().toMillis());
    view.put("attempt", task.attempt());
    view.put("consecutiveFailures", task.consecutiveFailures());
    view.put("misfire", task.misfire().configName());
    view.put("timeoutMs", task.timeoutMs());
    view.put("maxRetries", task.maxRetries());
    view.put("retryBackoffMs", task.retryBackoffMs());
    view.put("parameters", JSON.readTree(task.parameters()));
    view.put("source", task.source());
    view.put("lastRun", last == null ? null : run(last));
    return view;
  }

  private static Map<String, Object> run(TaskRun run) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("id", run.id());
    view.put("fireTime", time(run.fireTime()));
    view.put("startedAt", time(run.startedAt()));
    view.put("endedAt", time(run.endedAt()));
    view.put("durationMs", run.endedAt() - run.startedAt());
    view.put("outcome", run.outcome());
    view.put("owner", run.owner());
    view.put("fence", run.fence());
    view.put("attempt", run.attempt());
    view.put("trigger", run.manual() ? "request" : "schedule");
    view.put("error", run.error());
    return view;
  }

  private static String time(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }
}
