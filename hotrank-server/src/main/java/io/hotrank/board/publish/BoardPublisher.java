package io.hotrank.board.publish;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Publishes a computed board to every layer: Redis (fresh key swapped live by a script), then this
 * instance's local snapshot, then the database snapshot row. The local snapshot is replaced even
 * when Redis fails, so the instance that computed always serves its newest result; a failing layer
 * is logged and counted, never fatal.
 */
@Component
public class BoardPublisher {

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
   * <p>With Redis up, the version comes from its sequence, so concurrent publishers never share
   * one; a publisher that finds a newer version live in Redis keeps that one rather than its own.
   * With Redis down, the version is one above the newest this instance or the database knows;
   * instances that publish at the same moment while Redis is down can then pick the same number,
   * which the scheduling leases of a later version rule out.
   *
   * @return the snapshot this instance serves afterwards
   */
  public BoardSnapshot publish(
      BoardDefinition board, Instant computedAt, List<BoardEntry> entries) {
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
    if (redisUp) {
      try {
        if (!redis.publish(snapshot)) {
          log.warn(
              "Board '{}' v{}: a newer version went live in Redis meanwhile; serving that one",
              board.name(),
              version);
          return redis
              .live(board.name())
              .map(payload -> BoardSnapshot.parse(payload, properties.defaultLimit(), "redis"))
              .map(
                  live -> {
                    local.install(live);
                    BoardSnapshot held = local.get(board.name());
                    return held == null ? live : held;
                  })
              .orElse(snapshot);
        }
      } catch (RuntimeException e) {
        failure("redis", board, version, e);
      }
    }
    local.install(snapshot);
    try {
      database.save(snapshot);
    } catch (RuntimeException e) {
      failure("db", board, version, e);
    }
    return snapshot;
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
}
