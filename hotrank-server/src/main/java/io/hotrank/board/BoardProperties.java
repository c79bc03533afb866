package io.hotrank.board;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How boards are computed, replicated and served, under {@code hotrank.board.*}. The boards
 * themselves are declared under {@code hotrank.boards} ({@link BoardSpec}).
 *
 * @param scanPageSize rows fetched per keyset page of the ranking scan
 * @param unavailableRetryAfter the Retry-After of a 503 when a board has no snapshot anywhere
 * @param defaultLimit entries a read returns when it names no limit
 * @param scheduling whether this instance triggers boards on their cron; recompute over HTTP works
 *     either way
 * @param checkInterval how often each instance compares its boards' versions with Redis and the
 *     database
 * @param notices whether to subscribe to publish notices on Redis Pub/Sub; without them convergence
 *     is left to the version check
 * @param fastPath whether local board hits are answered by a servlet filter instead of Spring MVC
 *     (same answers, less work per request)
 * @param cursorTtl how long a version is kept for cursor paging after a first page handed out a
 *     cursor on it: a client paging a board with a cursor sees the version it started on, until
 *     then
 * @param segmentsLocalBytes how many bytes of segment boards this instance keeps in memory: the
 *     segments being read, chosen by Caffeine's W-TinyLFU; a segment not held is read from Redis,
 *     else the database
 */
@ConfigurationProperties("hotrank.board")
public record BoardProperties(
    @DefaultValue("2000") int scanPageSize,
    @DefaultValue("5s") Duration unavailableRetryAfter,
    @DefaultValue("50") int defaultLimit,
    @DefaultValue("true") boolean scheduling,
    @DefaultValue("5s") Duration checkInterval,
    @DefaultValue("true") boolean notices,
    @DefaultValue("true") boolean fastPath,
    @DefaultValue("10m") Duration cursorTtl,
    @DefaultValue("64MB") org.springframework.util.unit.DataSize segmentsLocalBytes) {

  public BoardProperties {
    if (scanPageSize < 1) {
      throw new IllegalArgumentException(
          "hotrank.board.scan-page-size=" + scanPageSize + " must be at least 1");
    }
    if (defaultLimit < 1) {
      throw new IllegalArgumentException(
          "hotrank.board.default-limit=" + defaultLimit + " must be at least 1");
    }
    if (unavailableRetryAfter.isNegative() || unavailableRetryAfter.isZero()) {
      throw new IllegalArgumentException(
          "hotrank.board.unavailable-retry-after=" + unavailableRetryAfter + " must be positive");
    }
    if (cursorTtl.toMillis() < 1) {
      throw new IllegalArgumentException(
          "hotrank.board.cursor-ttl=" + cursorTtl + " must be at least 1ms");
    }
    if (segmentsLocalBytes.toBytes() < 1) {
      throw new IllegalArgumentException(
          "hotrank.board.segments-local-bytes=" + segmentsLocalBytes + " must be positive");
    }
    if (checkInterval.toMillis() < 1) {
      throw new IllegalArgumentException(
          "hotrank.board.check-interval=" + checkInterval + " must be at least 1ms");
    }
  }
}
