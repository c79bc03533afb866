package io.hotrank.task;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.jspecify.annotations.Nullable;
import org.springframework.scheduling.support.CronExpression;

/**
 * When a task fires: a cron expression (six fields, seconds first) evaluated in a time zone, so
 * that "03:00 in Berlin" stays 03:00 across daylight-saving changes; or a fixed interval after the
 * previous fire time; or neither, for a task run only on demand.
 */
record Schedule(@Nullable CronExpression cron, ZoneId zone, @Nullable Duration interval) {

  /** A far-future next fire time: a task without one is never due (only triggered). */
  static final long NEVER = 253_402_300_799_000L; // 9999-12-31T23:59:59Z

  static Schedule of(@Nullable String cron, String zone, @Nullable Long intervalMs) {
    return new Schedule(
        cron == null ? null : CronExpression.parse(cron),
        ZoneId.of(zone),
        intervalMs == null ? null : Duration.ofMillis(intervalMs));
  }

  /**
   * The first fire time strictly after {@code after} on the grid of a fire time {@code anchor}: an
   * interval keeps its phase ({@code anchor} plus a whole number of intervals), a cron has no phase
   * to keep.
   */
  long firstAfter(long anchor, long after) {
    if (interval != null && after >= anchor) {
      long step = interval.toMillis();
      return Math.min(NEVER, anchor + ((after - anchor) / step + 1) * step);
    }
    return next(Math.max(anchor, after));
  }

  /** The first fire time strictly after {@code after}, in epoch milliseconds, or {@link #NEVER}. */
  long next(long after) {
    if (interval != null) {
      return Math.min(NEVER, after + interval.toMillis());
    }
    if (cron == null) {
      return NEVER;
    }
    ZonedDateTime next = cron.next(Instant.ofEpochMilli(after).atZone(zone));
    return next == null ? NEVER : Math.min(NEVER, next.toInstant().toEpochMilli());
  }
}
