package io.hotrank.event;

import java.time.Instant;
import java.util.List;

/**
 * The body of {@code POST /api/v1/events}: 1 to 1000 interaction events, applied all or none.
 * Fields are nullable so that validation, not JSON binding, reports what is missing.
 */
public record EventBatch(List<Event> events) {

  /** One interaction. {@code at} defaults to the time of receipt. */
  public record Event(String biz, Long itemId, String type, Long userId, Instant at) {}
}
