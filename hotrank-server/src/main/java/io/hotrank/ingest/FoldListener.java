package io.hotrank.ingest;

/**
 * Told of every fold after it committed, in fold order, on the folding thread: how the Redis side
 * (windowed boards, leaderboards) follows the log. A listener must be idempotent per fold number (a
 * fold may be told again after a crash) and must catch up by itself on folds it missed, through
 * {@link FoldHistory}.
 */
public interface FoldListener {

  /** A fold committed. Exceptions are logged; the next fold is told regardless. */
  void folded(Fold fold);

  /**
   * Nothing was waiting to be folded; {@code lastFoldNo} is the last committed fold. Told about
   * once a second while the folder is idle, so that a listener that fell behind (Redis was down or
   * lost its data) catches up without waiting for new events.
   */
  default void idle(long lastFoldNo) {}
}
