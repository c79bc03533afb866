package io.hotrank.audit;

import io.hotrank.problem.InvalidRequestException;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
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

  /** A page of the log. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "AuditPage")
  record Page(List<Entry> entries, @Nullable String next) {}

  /**
   * One entry.
   *
   * @param before the target's state before the change, as JSON; null when it did not exist
   * @param after its state after; null when the change removed it
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "AuditEntry")
  record Entry(
      long id,
      Instant at,
      String actor,
      String action,
      String target,
      @Nullable String reason,
      @Schema(description = "The target's state before the change: any JSON value, or null")
          @Nullable Object before,
      @Schema(description = "The target's state after the change: any JSON value, or null")
          @Nullable Object after) {}

  @GetMapping("/api/v1/admin/audit")
  Page list(
      // Read as text, so that a malformed one gets this module's own message.
      @Parameter(
              schema =
                  @Schema(
                      type = "integer",
                      minimum = "1",
                      maximum = "" + AuditQuery.MAX_LIMIT,
                      description = "entries per page"))
          @RequestParam(required = false)
          @Nullable String limit,
      @RequestParam(required = false) @Nullable String cursor,
      @RequestParam(required = false) @Nullable String target) {
    AuditPage page = query.page(limit(limit), cursor, target);
    return new Page(page.entries().stream().map(AuditController::view).toList(), page.next());
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

  private static Entry view(AuditEntry entry) {
    return new Entry(
        entry.id(),
        entry.at(),
        entry.actor(),
        entry.action(),
        entry.target(),
        entry.reason(),
        json(entry.before()),
        json(entry.after()));
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
