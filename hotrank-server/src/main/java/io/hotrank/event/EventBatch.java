package io.hotrank.event;

import io.hotrank.item.Rfc3339Instant;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The body of {@code POST /api/v1/events}: 1 to 1000 interaction events, applied all or none.
 * Fields are nullable so that validation, not JSON binding, reports what is missing.
 */
public record EventBatch(@Nullable List<Event> events) {

  /**
   * One interaction. {@code at} defaults to the time of receipt; when given it is an RFC 3339
   * string (never a number, see {@link Rfc3339Instant}) from {@link EventValidator#EARLIEST} to a
   * few minutes ahead of the server's clock. {@code id}, when given, names the event for
   * deduplication: 1 to 64 characters of {@code [A-Za-z0-9._:-]}, unique within its biz.
   */
  public record Event(
      @Nullable String id,
      @Nullable String biz,
      @Nullable Long itemId,
      @Nullable String type,
      @Nullable Long userId,
      @JsonDeserialize(using = Rfc3339Instant.class) @Nullable Instant at) {}
}
