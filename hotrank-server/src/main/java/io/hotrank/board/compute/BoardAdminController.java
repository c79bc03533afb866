package io.hotrank.board.compute;

import io.hotrank.audit.AuditLog;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/admin/boards/{name}/recompute}: compute and publish a board now, under its
 * lease (409 if another instance holds it past a bounded wait); role operator, audited.
 */
@RestController
class BoardAdminController {

  private final BoardJobs jobs;

  BoardAdminController(BoardJobs jobs) {
    this.jobs = jobs;
  }

  @AdminAction(Role.OPERATOR)
  @PostMapping("/api/v1/admin/boards/{name}/recompute")
  Map<String, Object> recompute(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    BoardSnapshot published = jobs.recompute(name, operator.name(), AuditLog.reason(reason));
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("board", published.board());
    view.put("version", published.version());
    view.put("computedAt", published.computedAt().toString());
    view.put("size", published.size());
    return view;
  }
}
