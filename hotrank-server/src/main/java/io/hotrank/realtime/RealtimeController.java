package io.hotrank.realtime;

import io.hotrank.audit.AuditLog;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.ingest.EventSource;
import io.hotrank.job.JobScheduler;
import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;
import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/admin/boards/{name}/rebuild}: refills a leaderboard from the database's
 * counters (after Redis lost its data the folder does so by itself), replays a window board's
 * window from the event log, or rebuilds a live board by a scan of its window, in its publish job
 * under the board's lease (409 when another instance holds it past a bounded wait; that instance
 * rebuilds it within a second). Role operator; audited ({@code board.rebuild}) once done: the
 * rebuild has no transaction to share, so a failure to write the entry answers 503 although it
 * happened.
 */
@RestController
class RealtimeController {

  private final BoardRegistry registry;
  private final RealtimeBoards boards;
  private final AuditLog audit;
  private final ObjectProvider<JobScheduler> scheduler;
  private final EventSource source;

  RealtimeController(
      BoardRegistry registry,
      RealtimeBoards boards,
      AuditLog audit,
      ObjectProvider<JobScheduler> scheduler,
      EventSource source) {
    this.source = source;
    this.registry = registry;
    this.boards = boards;
    this.audit = audit;
    this.scheduler = scheduler;
  }

  @AdminAction(Role.OPERATOR)
  @PostMapping("/api/v1/admin/boards/{name}/rebuild")
  Rebuilt rebuild(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator)
      throws Exception {
    String why = AuditLog.reason(reason);
    BoardDefinition board = registry.require(name);
    RealtimeBoards.Kept kept = boards.find(name).orElseThrow(() -> new NotRealtimeException(name));
    // The rebuild then holds every event accepted before the call (503 past the bound).
    source.folds().awaitAccepted();
    if (kept.kind().rebuild(board, "operator '" + operator.name() + "' asked for it")) {
      scheduler.getObject().runNow(RealtimeJobs.publishJobName(board.name()));
    }
    // After the rebuild (Redis has no transaction to share): a rebuild that failed writes none.
    audit.record(
        operator.name(),
        "board.rebuild",
        "board:" + name,
        why,
        null,
        Map.of("type", board.kind().configName()));
    return new Rebuilt(name, board.kind().configName(), true);
  }

  /** A rebuild's answer. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "Rebuilt")
  record Rebuilt(String board, String type, boolean rebuilt) {}

  /** Only realtime boards are rebuilt; a batch board is recomputed. */
  static final class NotRealtimeException extends HotrankException {

    static final ProblemType TYPE = new ProblemType(409, "not-realtime", "Not a realtime board");

    NotRealtimeException(String name) {
      super(
          TYPE,
          "Board '"
              + name
              + "' is a batch board; recompute it with POST /api/v1/admin/boards/"
              + name
              + "/recompute");
    }
  }
}
