package io.hotrank.board;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where boards computed outside the board packages (realtime boards) are published: the same path
 * as batch boards (local snapshot, Redis, database, notices, static export).
 */
public interface BoardSink {

  /**
   * Publishes entries under a new version, fenced by the publishing run's lease.
   *
   * @return the snapshot this instance serves afterwards
   * @throws StalePublishException if a higher fencing token has published the board
   */
  BoardSnapshot publish(
      BoardDefinition board, Instant computedAt, List<BoardEntry> entries, long fence);

  /** The snapshot of the board this instance serves now, if any. */
  @Nullable BoardSnapshot current(String board);
}
