package io.hotrank.console;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The audit log, newest first, filterable by target (exact, or a prefix ending in {@code *}). */
@Controller
class AuditPage {

  private static final int SHOWN = 200;

  private final AuditReader reader;

  AuditPage(AuditReader reader) {
    this.reader = reader;
  }

  @GetMapping(ConsolePaths.ROOT + "/audit")
  String audit(@RequestParam(required = false) @Nullable String target, Model model) {
    model.addAttribute("target", target == null ? "" : target);
    model.addAttribute("entries", reader.newest(target, SHOWN));
    return "console/audit";
  }
}
