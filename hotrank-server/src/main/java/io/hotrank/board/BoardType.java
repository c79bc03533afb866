package io.hotrank.board;

import java.util.Locale;

/** How a board is computed. */
public enum BoardType {
  /** Scored by a scan of the items created in its window, on its cron ({@code board.compute}). */
  BATCH,
  /**
   * The weighted events of a sliding window, kept in Redis buckets ({@code io.hotrank.realtime}).
   */
  WINDOW,
  /**
   * One counter's all-time value, kept in sharded Redis sorted sets ({@code io.hotrank.realtime}).
   */
  LEADERBOARD,
  /**
   * A Reddit or decay board kept in a Redis sorted set by the fold, ordered by a key that does not
   * change with time ({@code io.hotrank.realtime}).
   */
  LIVE;

  /** The name as written in configuration and shown by the API. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
