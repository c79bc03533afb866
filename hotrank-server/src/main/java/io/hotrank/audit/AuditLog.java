package io.hotrank.audit;

import io.hotrank.problem.InvalidRequestException;
import java.time.Clock;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Appends entries to the audit log ({@code hr_audit}). {@link #record} runs on the caller's
 * transaction when there is one (the {@link JdbcTemplate} joins the transaction bound to the
 * thread), so the entry commits or rolls back with the change it describes. Thread-safe.
 */
@Component
public class AuditLog {

  /** The actor of changes the service makes by itself. */
  public static final String SYSTEM = "system";

  static final int MAX_ACTOR = 64;
  static final int MAX_ACTION = 64;
  static final int MAX_TARGET = 200;
  static final int MAX_REASON = 500;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final JdbcTemplate jdbc;
  private final Clock clock;

  AuditLog(JdbcTemplate jdbc, Clock clock) {
    this.jdbc = jdbc;
    this.clock = clock;
  }

  /**
   * Appends one entry, on the caller's transaction if one is active.
   *
   * @param before the state before (serialized as JSON; a String is taken as JSON already), or null
   * @param after the state after, likewise, or null
   * @throws IllegalArgumentException if actor, action or target is blank or too long
   */
  public void record(
      String actor,
      String action,
      String target,
      @Nullable String reason,
      @Nullable Object before,
      @Nullable Object after) {
    require("actor", actor, MAX_ACTOR);
    require("action", action, MAX_ACTION);
    require("target", target, MAX_TARGET);
    String kept =
        reason == null || reason.length() <= MAX_REASON ? reason : reason.substring(0, MAX_REASON);
    jdbc.update(
        "INSERT INTO hr_audit (at, actor, action, target, reason, before_json, after_json)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?)",
        clock.millis(),
        actor,
        action,
        target,
        kept,
        json(before),
        json(after));
  }

  /**
   * The optional reason a request gave for an audited change ({@code ?reason=}), checked before the
   * change is made: blank is none.
   *
   * @throws InvalidRequestException naming {@code reason} when it is longer than 500 characters
   */
  public static @Nullable String reason(@Nullable String reason) {
    if (reason == null || reason.isBlank()) {
      return null;
    }
    String kept = reason.strip();
    if (kept.length() > MAX_REASON) {
      throw new InvalidRequestException("reason", "must be at most " + MAX_REASON + " characters");
    }
    return kept;
  }

  private static @Nullable String json(@Nullable Object state) {
    if (state == null) {
      return null;
    }
    if (state instanceof String text) {
      return text;
    }
    return JSON.writeValueAsString(state);
  }

  private static void require(String field, String value, int max) {
    if (value.isBlank() || value.length() > max) {
      throw new IllegalArgumentException(
          "Audit " + field + " must be 1.." + max + " characters: '" + value + "'");
    }
  }
}
