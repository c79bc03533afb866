package io.hotrank.board.publish;

import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.redis.RedisReadGuard;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The remote layers a snapshot is fetched from: Redis, read within the read timeout and through the
 * circuit breaker, and the database. Shared by the read path (on a local miss) and by {@link
 * BoardSync} (on a notice or a version check). Thread-safe.
 */
@Component
public class SnapshotSources {

  private final BoardRedisStore redis;
  private final BoardSnapshotStore database;
  private final RedisReadGuard guard;
  private final int defaultLimit;

  SnapshotSources(
      BoardRedisStore redis,
      BoardSnapshotStore database,
      RedisReadGuard guard,
      BoardProperties properties) {
    this.redis = redis;
    this.database = database;
    this.guard = guard;
    this.defaultLimit = properties.defaultLimit();
  }

  /**
   * The live snapshot in Redis.
   *
   * @throws io.hotrank.redis.RedisUnavailableException if Redis failed, timed out or the breaker is
   *     open
   */
  public Optional<BoardSnapshot> fromRedis(String board) {
    return guard
        .read("live payload of " + board, () -> redis.live(board))
        .map(payload -> BoardSnapshot.parse(payload, defaultLimit, "redis"));
  }

  /**
   * The live version in Redis, 0 if none.
   *
   * @throws io.hotrank.redis.RedisUnavailableException as {@link #fromRedis}
   */
  public long redisVersion(String board) {
    return guard.read("version of " + board, () -> redis.liveVersion(board));
  }

  /**
   * The snapshot stored in the database.
   *
   * @throws org.springframework.dao.DataAccessException if the database failed
   */
  public Optional<BoardSnapshot> fromDatabase(String board) {
    return database.find(board).map(payload -> BoardSnapshot.parse(payload, defaultLimit, "db"));
  }

  /**
   * Whether Redis answers a PING within the read timeout; for health probes, which do not count in
   * the read breaker. Never throws.
   */
  public boolean redisAnswers() {
    try {
      guard.probe("health ping", redis::ping);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Whether the database answers within about a second; for health probes. Never throws. */
  public boolean databaseAnswers() {
    return database.answers();
  }

  /**
   * The segment boards of a family with entries, from the database: see {@link
   * BoardSnapshotStore#segments}.
   *
   * @throws org.springframework.dao.DataAccessException if the database failed
   */
  public java.util.List<BoardSnapshotStore.SegmentRow> segments(
      String family,
      @org.jspecify.annotations.Nullable Integer afterEntries,
      @org.jspecify.annotations.Nullable String afterKey,
      int limit) {
    return database.segments(family, afterEntries, afterKey, limit);
  }

  /**
   * The segment boards of a family with entries whose name starts with {@code prefix}, most entries
   * first: see {@link BoardSnapshotStore#segments(String, String, int)}.
   */
  public java.util.List<BoardSnapshotStore.SegmentRow> segments(
      String family, @org.jspecify.annotations.Nullable String prefix, int limit) {
    return database.segments(family, prefix, limit);
  }

  /** The version stored in the database, 0 if none. */
  public long databaseVersion(String board) {
    return database.version(board);
  }

  /**
   * Opens the Redis connection with a PING under the client's own timeout, which is longer than the
   * read timeout a first command would otherwise exceed. Never throws.
   *
   * @return whether Redis answered
   */
  public boolean warmUpRedis() {
    return redis.warmUp();
  }
}
