package io.hotrank.board.publish;

import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.LuaScripts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * The Redis layer of boards. Per board, all keys carry the hash tag {@code {b:<name>}} so that the
 * publish script touches one Cluster slot:
 *
 * <ul>
 *   <li>{@code <prefix>{b:<name>}:live} the payload (JSON document of the whole board)
 *   <li>{@code <prefix>{b:<name>}:ver} the version of the live payload
 *   <li>{@code <prefix>{b:<name>}:seq} the version sequence
 *   <li>{@code <prefix>{b:<name>}:fence} the highest fencing token that has published it
 *   <li>{@code <prefix>{b:<name>}:stage:<version>} a payload being published
 * </ul>
 *
 * Every method throws Spring's {@code DataAccessException} when Redis fails; callers decide how to
 * degrade.
 */
@Component
public class BoardRedisStore {

  /** No base version: a publish that does not depend on what is live (a computation's). */
  public static final long NO_BASE = -1;

  private static final Duration STAGE_TTL = Duration.ofMinutes(5);

  private final StringRedisTemplate redis;
  private final String prefix;
  private final RedisScript<Long> publishScript = LuaScripts.load("publish-board.lua", Long.class);
  private final RedisScript<Long> nextVersionScript =
      LuaScripts.load("next-board-version.lua", Long.class);

  private final Duration cursorTtl;

  BoardRedisStore(
      StringRedisTemplate redis, HotrankRedisProperties properties, BoardProperties boards) {
    this.redis = redis;
    this.prefix = properties.keyPrefix();
    this.cursorTtl = boards.cursorTtl();
  }

  /**
   * Opens the connection with a PING under the client's own timeout. Returns whether Redis
   * answered; never throws.
   */
  public boolean warmUp() {
    try {
      ping();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Sends a PING.
   *
   * @return Redis's answer
   * @throws org.springframework.dao.DataAccessException if Redis fails
   */
  public String ping() {
    return String.valueOf(redis.execute((RedisCallback<String>) c -> c.ping()));
  }

  /** The Pub/Sub channel on which publishes are announced as "{@code <board> <version>}". */
  public String channel() {
    return prefix + "boards";
  }

  /**
   * Takes the next version number of a board from its sequence, above {@code floor}; unique across
   * instances sharing this Redis.
   */
  public long nextVersion(String board, long floor) {
    Long next = redis.execute(nextVersionScript, List.of(key(board, "seq")), Long.toString(floor));
    if (next == null) {
      throw new IllegalStateException("version script inside a transaction or pipeline");
    }
    return next;
  }

  /** What became of a publish. */
  public enum Outcome {
    /** It went live. */
    LIVE,
    /** An equal or newer version was live already. */
    NEWER_LIVE,
    /** A publisher with a higher fencing token has published: the caller's lease is stale. */
    STALE_FENCE
  }

  /**
   * Writes the snapshot to a fresh key and swaps it live if no higher fencing token has published
   * the board and it is newer than the live one.
   */
  public Outcome publish(BoardSnapshot snapshot, long fence) {
    return publish(snapshot, fence, NO_BASE);
  }

  /**
   * Like {@link #publish(BoardSnapshot, long)}, and also only while no version above {@code base}
   * is live: a compare-and-swap for a re-publish built on the snapshot of version {@code base}, so
   * that it never replaces content published after it read its base ({@link #NO_BASE}: no such
   * condition). Refused for that reason, it returns {@link Outcome#NEWER_LIVE}.
   */
  public Outcome publish(BoardSnapshot snapshot, long fence, long base) {
    String board = snapshot.key();
    String stage = key(board, "stage:" + snapshot.version());
    redis
        .opsForValue()
        .set(stage, new String(snapshot.payload(), StandardCharsets.UTF_8), STAGE_TTL);
    Long swapped =
        redis.execute(
            publishScript,
            List.of(
                stage,
                key(board, "live"),
                key(board, "ver"),
                key(board, "seq"),
                key(board, "fence")),
            Long.toString(snapshot.version()),
            channel(),
            board,
            Long.toString(fence),
            base == NO_BASE ? "" : Long.toString(base));
    if (swapped == null) {
      throw new IllegalStateException("publish script inside a transaction or pipeline");
    }
    return swapped == 1L ? Outcome.LIVE : swapped == 0L ? Outcome.NEWER_LIVE : Outcome.STALE_FENCE;
  }

  /** The live payload of a board, if one was ever published. */
  public Optional<byte[]> live(String board) {
    String payload = redis.opsForValue().get(key(board, "live"));
    return Optional.ofNullable(payload).map(p -> p.getBytes(StandardCharsets.UTF_8));
  }

  /** The highest fencing token that has published a board in Redis, 0 if none. */
  public long fence(String board) {
    String fence = redis.opsForValue().get(key(board, "fence"));
    return fence == null ? 0 : Long.parseLong(fence);
  }

  /** The live version of a board, 0 if none. */
  public long liveVersion(String board) {
    String version = redis.opsForValue().get(key(board, "ver"));
    return version == null ? 0 : Long.parseLong(version);
  }

  /**
   * Keeps a published version's payload for {@code hotrank.board.cursor-ttl} from now, for clients
   * paging it with a cursor on any instance. Only versions a cursor was handed out for are kept:
   * keeping every version (realtime boards publish every second) would fill Redis for nothing.
   */
  public void pin(String board, long version, byte[] payload) {
    redis
        .opsForValue()
        .set(pinnedKey(board, version), new String(payload, StandardCharsets.UTF_8), cursorTtl);
  }

  /** The payload of a published version while it is kept for cursor paging ({@link #pin}). */
  public Optional<byte[]> pinned(String board, long version) {
    String payload = redis.opsForValue().get(pinnedKey(board, version));
    return Optional.ofNullable(payload).map(p -> p.getBytes(StandardCharsets.UTF_8));
  }

  private String pinnedKey(String board, long version) {
    return key(board, "v:" + version);
  }

  private String key(String board, String suffix) {
    return prefix + "{b:" + board + "}:" + suffix;
  }
}
