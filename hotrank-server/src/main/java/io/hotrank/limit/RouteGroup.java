package io.hotrank.limit;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The groups of routes that each have a rate limit policy. */
public enum RouteGroup {
  /** Writes: every method but GET and HEAD under {@code /api/v1/}, admin excepted. */
  INGEST,
  /** GET and HEAD under {@code /api/v1/}, admin excepted. */
  READS,
  /** {@code /api/v1/admin/**}, and {@code /actuator/metrics}, which takes the admin token too. */
  ADMIN,
  /**
   * The operator console, {@code /console/**}: a policy of its own, so that an open console polling
   * its board every second never spends the operator's admin quota.
   */
  CONSOLE;

  private static final String API = "/api/v1/";
  private static final String ADMIN_PATHS = "/api/v1/admin/";
  private static final String METRICS = "/actuator/metrics";
  private static final String CONSOLE_PATHS = "/console";

  /** The group of a request, or null for paths no policy covers (health, Prometheus). */
  static @Nullable RouteGroup of(String method, String path) {
    if (path.equals(METRICS) || path.startsWith(METRICS + "/")) {
      return ADMIN;
    }
    if (path.equals(CONSOLE_PATHS) || path.startsWith(CONSOLE_PATHS + "/")) {
      return CONSOLE;
    }
    if (!path.startsWith(API)) {
      return null;
    }
    if (path.startsWith(ADMIN_PATHS)) {
      return ADMIN;
    }
    return "GET".equals(method) || "HEAD".equals(method) ? READS : INGEST;
  }

  /** The policy's name in keys and headers. */
  public String policyName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
