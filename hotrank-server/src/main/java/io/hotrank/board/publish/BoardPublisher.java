package io.hotrank.board.publish;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardSink;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.StalePublishException;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Publishes a computed board to every layer under its run's fencing token: the database snapshot
 * row, then Redis (fresh key swapped live by a script), then this instance's local snapshot. Both
 * shared layers refuse a token lower than the highest that has published the board; a refusal stops
 * the publish there, is logged and counted ({@code hotrank.board.publish.rejected}) and is never
 * retried. A layer that fails is logged and counted, never fatal.
 */
@Component
public class BoardPublisher implements BoardSink {

  private static final Logger log = LoggerFactory.getLogger(BoardPublisher.class);

  private final BoardRedisStore redis;
  private final BoardSnapshotStore database;
  private final LocalBoards local;
  private final BoardProperties properties;
  private final MeterRegistry meters;

  BoardPublisher(
      BoardRedisStore redis,
      BoardSnapshotStore database,
      LocalBoards local,
      BoardProperties properties,
      MeterRegistry meters) {
    this.redis = redis;
    this.database = database;
    this.local = local;
    this.properties = properties;
    this.meters = meters;
  }

  /**
   * Publishes a computation result under a new version.
   *
   * <p>The version comes from the Redis sequence, above every version this instance or the database
   * knows, so concurrent publishers never share one. With Redis down it is one above the newest
   * known, and the database write, guarded by version and fence, lets only one publisher store a
   * version; a publisher that finds an equal or newer version stored or live serves that one
   * instead of its own.
   *
   * @param fence the fencing token of the run's lease
   * @return the snapshot this instance serves afterwards
   * @throws StalePublishException if a higher fencing token has published the board
   */
  @Override
  public BoardSnapshot publish(
      BoardDefinition board, Instant computedAt, List<BoardEntry> entries, long fence) {
    long floor = floor(board.name());
    long version = floor + 1;
    boolean redisUp = true;
    try {
      version = redis.nextVersion(board.name(), floor);
    } catch (RuntimeException e) {
      redisUp = false;
      failure("redis", board, version, e);
    }
    BoardSnapshot snapshot =
        BoardSnapshot.of(board.name(), version, computedAt, entries, properties.defaultLimit());

    BoardSnapshotStore.Saved saved = null;
    try {
      saved = database.save(snapshot, fence);
    } catch (RuntimeException e) {
      failure("db", board, version, e);
    }
    if (saved == BoardSnapshotStore.Saved.STALE_FENCE) {
      throw rejected(board, version, fence, "db");
    }
    if (saved == BoardSnapshotStore.Saved.NOT_NEWER) {
      // Another publisher stored this version or a newer one: never put this content live under
      // a number the database gives to other content.
      log.warn(
          "Board '{}' v{}: an equal or newer version is stored already; serving that one",
          board.name(),
          version);
      return installed(
          database
              .find(board.name())
              .map(p -> BoardSnapshot.parse(p, properties.defaultLimit(), "db")),
          snapshot);
    }
    if (redisUp) {
      try {
        switch (redis.publish(snapshot, fence)) {
          case STALE_FENCE -> throw rejected(board, version, fence, "redis");
          case NEWER_LIVE -> {
            log.warn(
                "Board '{}' v{}: a newer version went live in Redis meanwhile; serving that one",
                board.name(),
                version);
            return installed(
                redis
                    .live(board.name())
                    .map(p -> BoardSnapshot.parse(p, properties.defaultLimit(), "redis")),
                snapshot);
          }
          case LIVE -> {}
        }
      } catch (StalePublishException e) {
        throw e;
      } catch (RuntimeException e) {
        failure("redis", board, version, e);
      }
    }
    local.install(snapshot);
    return snapshot;
  }

  private BoardSnapshot installed(Optional<BoardSnapshot> newer, BoardSnapshot fallback) {
    return newer
        .map(
            snapshot -> {
              local.install(snapshot);
              BoardSnapshot held = local.get(snapshot.board());
              return held == null ? snapshot : held;
            })
        .orElse(fallback);
  }

  private StalePublishException rejected(
      BoardDefinition board, long version, long fence, String layer) {
    meters
        .counter("hotrank.board.publish.rejected", "board", board.name(), "layer", layer)
        .increment();
    StalePublishException e = new StalePublishException(board.name(), fence, layer);
    log.warn("Board '{}' v{} not published: {}", board.name(), version, e.getMessage());
    return e;
  }

  /** The newest version this instance or the database knows of a board. */
  private long floor(String board) {
    long floor = local.version(board);
    try {
      floor = Math.max(floor, database.version(board));
    } catch (RuntimeException e) {
      log.warn("Board '{}': database unavailable for the version floor ({})", board, e.toString());
    }
    return floor;
  }

  private void failure(String layer, BoardDefinition board, long version, RuntimeException e) {
    meters
        .counter("hotrank.board.publish.failures", "board", board.name(), "layer", layer)
        .increment();
    log.warn(
        "Board '{}' v{}: publishing to {} failed, other layers still serve it: {}",
        board.name(),
        version,
        layer,
        e.toString());
  }

  @Override
  public @Nullable BoardSnapshot current(String board) {
    return local.get(board);
  }
}
