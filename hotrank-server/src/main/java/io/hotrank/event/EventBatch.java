package io.hotrank.event;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /api/v1/events}: 1 to 1000 interaction events, applied all or none.
 * Fields are nullable so that validation, not JSON binding, reports what is missing.
 */
public record EventBatch(@Nullable List<Event> events) {

  /** One interaction. {@code at} defaults to the time of receipt. */
  public record Event(
      @Nullable String biz,
      @Nullable Long itemId,
      @Nullable String type,
      @Nullable Long userId,
      @Nullable Instant at) {}
}
