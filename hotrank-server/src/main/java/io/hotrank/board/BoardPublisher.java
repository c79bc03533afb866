package io.hotrank.board;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Publishes a computed board to every layer: Redis (fresh key swapped live by a script), then
 * this instance's local snapshot, then the database snapshot row. The local snapshot is replaced
 * even when Redis fails, so the instance that computed always serves its newest result; a
 * failing layer is logged and counted, never fatal.
 */
@Component
class BoardPublisher {

  private static final Logger log = LoggerFactory.getLogger(BoardPublisher.class);

  private final BoardRedisStore redis;
  private final BoardSnapshotStore database;
  private final LocalBoards local;
  private final BoardProperties properties;
  private final MeterRegistry meters;

  BoardPublisher(BoardRedisStore redis, BoardSnapshotStore database, LocalBoards local,
      BoardProperties properties, MeterRegistry meters) {
    this.redis = redis;
    this.database = database;
    this.local = local;
    this.properties = properties;
    this.meters = meters;
  }

  /**
   * Publishes a computation result under a new version.
   *
   * @return the snapshot published; its version is newer than any this instance has seen
   */
  BoardSnapshot publish(BoardDefinition board, BoardComputer.Result result) {
    long version = nextVersion(board.name());
    BoardSnapshot snapshot = BoardSnapshot.of(board.name(), version, result.computedAt(),
        result.entries(), properties.defaultLimit());
    try {
      if (!redis.publish(snapshot)) {
        log.warn("Board '{}' v{}: a newer version is live in Redis already; keeping it there",
            board.name(), version);
      }
    } catch (RuntimeException e) {
      failure("redis", board, version, e);
    }
    local.install(snapshot);
    try {
      database.save(snapshot);
    } catch (RuntimeException e) {
      failure("db", board, version, e);
    }
    return snapshot;
  }

  /**
   * The Redis sequence is the source of versions; the local and database versions keep them
   * increasing when Redis is down or was replaced by an empty one.
   */
  private long nextVersion(String board) {
    long version = local.version(board) + 1;
    try {
      version = Math.max(version, redis.nextVersion(board));
    } catch (RuntimeException e) {
      log.warn("Board '{}': Redis unavailable for the version sequence ({})", board, e.toString());
    }
    try {
      version = Math.max(version, database.version(board) + 1);
    } catch (RuntimeException e) {
      log.warn("Board '{}': database unavailable for the version check ({})", board, e.toString());
    }
    return version;
  }

  private void failure(String layer, BoardDefinition board, long version, RuntimeException e) {
    meters.counter("hotrank.board.publish.failures", "board", board.name(), "layer", layer).increment();
    log.warn("Board '{}' v{}: publishing to {} failed, other layers still serve it: {}",
        board.name(), version, layer, e.toString());
  }
}
