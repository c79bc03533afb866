package io.hotrank.ingest;

import io.hotrank.audit.AuditLog;
import io.hotrank.idempotency.IdempotencyClaim;
import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/events}: 202 once the batch is durable on the source, with how many of its
 * events count and how many were duplicates ({@code {"accepted": 3, "duplicates": 1}}); and {@code
 * POST /api/v1/admin/events/fold}: fold everything accepted so far, now (role operator; audited as
 * {@code events.fold} with what it folded). The folds commit one by one, before the entry is
 * written: a call that fails after some of them still records those ({@code {folds, events,
 * failed}}), and a failure to write the entry answers 503 although the folds happened.
 */
@RestController
class EventController {

  /** Enough for any backlog an operator would wait for; the scheduled folder does the rest. */
  private static final int MAX_FOLDS = 1000;

  private final EventIngest ingest;
  private final EventSource source;
  private final AuditLog audit;

  EventController(EventIngest ingest, EventSource source, AuditLog audit) {
    this.ingest = ingest;
    this.source = source;
    this.audit = audit;
  }

  @PostMapping("/api/v1/events")
  @ResponseStatus(HttpStatus.ACCEPTED)
  EventIngest.Accepted post(
      @RequestBody(required = false) io.hotrank.event.EventBatch batch,
      HttpServletRequest request) {
    return ingest.accept(batch, IdempotencyClaim.of(request));
  }

  @AdminAction(Role.OPERATOR)
  @PostMapping("/api/v1/admin/events/fold")
  FoldOnRequest.Summary fold(
      @RequestParam(required = false) @Nullable String reason, Operator operator) {
    String why = AuditLog.reason(reason);
    FoldOnRequest.Progress progress = new FoldOnRequest.Progress();
    FoldOnRequest.Summary summary;
    try {
      summary = source.folds().foldAll(MAX_FOLDS, progress);
    } catch (RuntimeException e) {
      // The folds before the failure committed, each in its own transaction: they happened, and
      // the log must say who asked for them.
      if (progress.folds() > 0) {
        try {
          audit.record(
              operator.name(),
              "events.fold",
              "events",
              why,
              null,
              Map.of(
                  "folds",
                  progress.folds(),
                  "events",
                  progress.events(),
                  "failed",
                  e.getClass().getSimpleName()));
        } catch (RuntimeException auditFailure) {
          e.addSuppressed(auditFailure);
        }
      }
      throw e;
    }
    // Each fold committed in its own transaction; the entry says what this call did in all.
    audit.record(operator.name(), "events.fold", "events", why, null, summary);
    return summary;
  }
}
