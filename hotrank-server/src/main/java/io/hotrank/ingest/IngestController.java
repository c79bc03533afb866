package io.hotrank.ingest;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/admin/ingest}: where ingest stands (role viewer). */
@RestController
class IngestController {

  private final EventSource source;

  IngestController(EventSource source) {
    this.source = source;
  }

  @GetMapping("/api/v1/admin/ingest")
  IngestReport ingest() {
    return source.report();
  }
}
