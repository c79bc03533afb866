package io.hotrank.ingest;

import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/events}: 202 once the batch is durable in the event log; and {@code POST
 * /api/v1/admin/events/fold}: fold everything accepted so far, now.
 */
@RestController
class EventController {

  /** Enough for any backlog an operator would wait for; the scheduled folder does the rest. */
  private static final int MAX_FOLDS = 1000;

  private final EventIngest ingest;
  private final FoldJobs folds;

  EventController(EventIngest ingest, FoldJobs folds) {
    this.ingest = ingest;
    this.folds = folds;
  }

  @PostMapping("/api/v1/events")
  @ResponseStatus(HttpStatus.ACCEPTED)
  Map<String, Integer> post(@RequestBody(required = false) io.hotrank.event.EventBatch batch) {
    return Map.of("accepted", ingest.accept(batch));
  }

  @PostMapping("/api/v1/admin/events/fold")
  FoldJobs.FoldSummary fold() {
    return folds.foldAll(MAX_FOLDS);
  }
}
