package io.hotrank.board.compute;

import io.hotrank.audit.AuditLog;
import io.hotrank.ingest.EventSource;
import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/admin/boards/{name}/recompute}: compute and publish a board now, under its
 * lease (409 if another instance holds it past a bounded wait), once every event accepted before
 * the call is folded (503 with Retry-After if that takes longer than {@code
 * hotrank.ingest.fold-barrier-timeout}); role operator, audited.
 */
@RestController
class BoardAdminController {

  private final BoardJobs jobs;
  private final EventSource source;

  BoardAdminController(BoardJobs jobs, EventSource source) {
    this.jobs = jobs;
    this.source = source;
  }

  @AdminAction(Role.OPERATOR)
  @PostMapping("/api/v1/admin/boards/{name}/recompute")
  BoardJobs.Recomputed recompute(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    // A client that posts events and then asks for a recompute gets a board with them.
    source.folds().awaitAccepted();
    return jobs.recompute(name, operator.name(), AuditLog.reason(reason));
  }
}
