package io.hotrank.audit;

import io.hotrank.problem.InvalidRequestException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/v1/admin/audit?limit=&cursor=&target=} (any operator): the audit log newest
 * first, {@code {"entries":[{id, at, actor, action, target, reason, before, after}], "next":
 * cursor|null}}, with {@code before} and {@code after} as JSON values.
 */
@RestController
class AuditController {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final AuditQuery query;

  AuditController(AuditQuery query) {
    this.query = query;
  }

  @GetMapping("/api/v1/admin/audit")
  Map<String, Object> list(
      @RequestParam(required = false) @Nullable String limit,
      @RequestParam(required = false) @Nullable String cursor,
      @RequestParam(required = false) @Nullable String target) {
    AuditPage page = query.page(limit(limit), cursor, target);
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("entries", page.entries().stream().map(AuditController::view).toList());
    view.put("next", page.next());
    return view;
  }

  private static @Nullable Integer limit(@Nullable String text) {
    if (text == null) {
      return null;
    }
    try {
      return Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      throw new InvalidRequestException(
          "limit", "must be an integer from 1 to " + AuditQuery.MAX_LIMIT);
    }
  }

  private static Map<String, Object> view(AuditEntry entry) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("id", entry.id());
    view.put("at", entry.at().toString());
    view.put("actor", entry.actor());
    view.put("action", entry.action());
    view.put("target", entry.target());
    view.put("reason", entry.reason());
    view.put("before", json(entry.before()));
    view.put("after", json(entry.after()));
    return view;
  }

  /** A stored state as a JSON value; one that is not JSON (written by hand) as a string. */
  private static @Nullable Object json(@Nullable String stored) {
    if (stored == null) {
      return null;
    }
    try {
      return JSON.readTree(stored);
    } catch (JacksonException e) {
      return stored;
    }
  }
}
