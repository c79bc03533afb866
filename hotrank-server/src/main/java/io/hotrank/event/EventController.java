package io.hotrank.event;

import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /api/v1/events}: interaction ingestion. */
@RestController
class EventController {

  private final EventService events;

  EventController(EventService events) {
    this.events = events;
  }

  @PostMapping("/api/v1/events")
  @ResponseStatus(HttpStatus.ACCEPTED)
  Map<String, Integer> post(@RequestBody(required = false) EventBatch batch) {
    return Map.of("accepted", events.apply(batch));
  }
}
