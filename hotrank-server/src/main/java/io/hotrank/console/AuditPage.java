package io.hotrank.console;

import io.hotrank.audit.AuditQuery;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The audit log, newest first, filterable by target (exact, or a prefix ending in {@code *}). */
@Controller
class AuditPage {

  private static final int SHOWN = AuditQuery.MAX_LIMIT;

  private final AuditQuery audit;

  AuditPage(AuditQuery audit) {
    this.audit = audit;
  }

  @GetMapping(ConsolePaths.ROOT + "/audit")
  String audit(@RequestParam(required = false) @Nullable String target, Model model) {
    model.addAttribute("target", target == null ? "" : target);
    model.addAttribute(
        "entries",
        audit.page(SHOWN, null, target == null || target.isBlank() ? null : target).entries());
    return "console/audit";
  }
}
