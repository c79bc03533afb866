package io.hotrank.board;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How boards are computed and served, under {@code hotrank.board.*}. The boards themselves are
 * declared under {@code hotrank.boards} ({@link BoardSpec}).
 *
 * @param boards the board declarations
 * @param scanPageSize rows fetched per keyset page of the ranking scan
 * @param unavailableRetryAfter the Retry-After of a 503 when a board has no snapshot anywhere
 * @param defaultLimit items returned when a read names no limit
 */
@ConfigurationProperties("hotrank.board")
record BoardProperties(
    @DefaultValue("2000") int scanPageSize,
    @DefaultValue("5s") Duration unavailableRetryAfter,
    @DefaultValue("50") int defaultLimit) {

  BoardProperties {
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
  }
}
