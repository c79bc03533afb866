/**
 * The operator console at {@code /console}: server-rendered pages (Thymeleaf, with htmx vendored
 * under {@code static/console/assets/} for the one live fragment) that show the boards, jobs,
 * tasks, hot keys, rate limits, ingest, actors, the review queue and the audit log, and act on
 * board controls and tasks through the same services as the admin API. It holds no state of its
 * own: a signed session cookie names the operator, who is looked up again on every request ({@code
 * ConsoleSessions}); every POST carries a token derived from that cookie ({@code ConsoleGuard}).
 * Uses only the public types of the modules it shows.
 */
@ApplicationModule(
    allowedDependencies = {
      "audit", "board", "hotkey", "ingest", "job", "limit", "lock", "review", "storage", "task",
      "trust", "web"
    })
@NullMarked
package io.hotrank.console;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
