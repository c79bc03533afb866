package io.hotrank.board.publish;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardSink;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.StalePublishException;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Publishes a board to every layer under a fencing token: the database snapshot row, then Redis
 * (fresh key swapped live by a script), then this instance's local snapshot. Both shared layers
 * refuse a token lower than the highest that has published the board; a refusal stops the publish
 * there, is logged and counted ({@code hotrank.board.publish.rejected}) and is never retried. A
 * layer that fails is logged and counted, never fatal.
 *
 * <h2>Operators' controls</h2>
 *
 * Every publish applies the board's controls ({@link ControlledEntries}): a computation's, a
 * realtime board's, and the re-publish that follows a control change ({@link #republish}), which
 * publishes the newest snapshot again with the controls as they are now, so that every instance
 * serves the change through the usual notices without waiting for a computation.
 *
 * <p>Why the newest version always reflects the newest committed controls: a publish FIRST takes
 * its version from the board's Redis sequence, THEN reads the controls from the database; a control
 * change FIRST commits, THEN re-publishes (taking a version the same way). The sequence is one
 * Redis counter, so versions are handed out in one order: a publish whose version is above the
 * change's took it after the change's, hence after the change committed, and read the controls
 * after that; it saw the change. A publish whose version is below the change's may not have, but
 * the publish script puts a version live only over an older one, so it never replaces the change's.
 * Whichever is live last is the highest version, and it saw every committed change. A re-publish
 * refused for its fence (a newer lease holder published meanwhile, maybe under a lower version that
 * missed the change) takes a new version and tries again.
 *
 * <p>With Redis down, versions come from the newest known plus one and notices are not sent, so the
 * argument holds only once Redis is back; the instances' version check then converges them.
 */
@Component
public class BoardPublisher implements BoardSink {

  private static final Logger log = LoggerFactory.getLogger(BoardPublisher.class);

  /** How many times a re-publish refused for its fence takes a new version and tries again. */
  private static final int REPUBLISH_ATTEMPTS = 5;

  private final BoardRedisStore redis;
  private final BoardSnapshotStore database;
  private final LocalBoards local;
  private final BoardProperties properties;
  private final MeterRegistry meters;
  private final ControlledEntries controlled;
  private final Clock clock;

  BoardPublisher(
      BoardRedisStore redis,
      BoardSnapshotStore database,
      LocalBoards local,
      BoardProperties properties,
      MeterRegistry meters,
      ControlledEntries controlled,
      Clock clock) {
    this.redis = redis;
    this.database = database;
    this.local = local;
    this.properties = properties;
    this.meters = meters;
    this.controlled = controlled;
    this.clock = clock;
  }

  /**
   * Publishes a computation result under a new version, with the board's controls applied.
   *
   * <p>The version comes from the Redis sequence, above every version this instance or the database
   * knows, so concurrent publishers never share one. With Redis down it is one above the newest
   * known, and the database write, guarded by version and fence, lets only one publisher store a
   * version; a publisher that finds an equal or newer version stored or live serves that one
   * instead of its own.
   *
   * @param entries the candidates best first: the board's top, larger than the board by the number
   *     of live controls so that blocks and pins leave it full
   * @param fence the fencing token of the run's lease
   * @return the snapshot this instance serves afterwards
   * @throws StalePublishException if a higher fencing token has published the board
   * @throws org.springframework.dao.DataAccessException if the controls cannot be read: nothing is
   *     published rather than a board that shows blocked items
   */
  @Override
  public BoardSnapshot publish(
      BoardDefinition board, Instant computedAt, List<BoardEntry> entries, long fence) {
    Version version = nextVersion(board);
    // After the version, never before: see the ordering argument in the class comment.
    List<BoardControl> controls = controlled.read(board.name());
    ControlsApplied.Result shown =
        controlled.apply(board, entries, controls, computedAt, clock.instant(), List.of());
    return publishVersion(board, version, computedAt, shown, fence);
  }

  /**
   * Publishes the board's newest snapshot again under a new version, with the controls as they are
   * in the database now: what a control change does after it commits. The newest snapshot is the
   * live one in Redis, else this instance's, else the database's; its entries' controls are undone
   * and the current ones applied, looking up items newly pinned or boosted and the {@code released}
   * ones (a control removed or expired). It is published under the highest fencing token the shared
   * layers hold, so the guards accept it and a stale computation is still refused.
   *
   * @param released items whose control was removed: ranked by their own score if they make it
   * @return the snapshot this instance serves afterwards; empty if the board was never published
   *     (its first computation applies the controls)
   */
  public Optional<BoardSnapshot> republish(BoardDefinition board, Collection<Long> released) {
    for (int attempt = 1; ; attempt++) {
      Version version = nextVersion(board);
      List<BoardControl> controls = controlled.read(board.name());
      BoardSnapshot newest = newest(board.name());
      if (newest == null) {
        return Optional.empty();
      }
      long fence = highestFence(board.name());
      List<BoardEntry> candidates = new ArrayList<>(newest.entries());
      candidates.addAll(newest.reserve());
      ControlsApplied.Result shown =
          controlled.apply(
              board, candidates, controls, newest.computedAt(), clock.instant(), released);
      try {
        return Optional.of(publishVersion(board, version, newest.computedAt(), shown, fence));
      } catch (StalePublishException e) {
        if (attempt == REPUBLISH_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /** A version and whether Redis handed it out. */
  private record Version(long number, boolean redisUp) {}

  private Version nextVersion(BoardDefinition board) {
    long floor = floor(board.name());
    try {
      return new Version(redis.nextVersion(board.name(), floor), true);
    } catch (RuntimeException e) {
      failure("redis", board, floor + 1, e);
      return new Version(floor + 1, false);
    }
  }

  private @Nullable BoardSnapshot newest(String board) {
    BoardSnapshot held = local.get(board);
    try {
      Optional<byte[]> live = redis.live(board);
      if (live.isPresent()) {
        BoardSnapshot shared = BoardSnapshot.parse(live.get(), properties.defaultLimit(), "redis");
        if (held == null || shared.version() > held.version()) {
          return shared;
        }
      }
    } catch (RuntimeException e) {
      log.warn("Board '{}': Redis unavailable for the re-publish ({})", board, e.toString());
    }
    if (held != null) {
      return held;
    }
    return database
        .find(board)
        .map(p -> BoardSnapshot.parse(p, properties.defaultLimit(), "db"))
        .orElse(null);
  }

  private long highestFence(String board) {
    long fence = database.fence(board);
    try {
      fence = Math.max(fence, redis.fence(board));
    } catch (RuntimeException e) {
      log.warn("Board '{}': Redis unavailable for the fence ({})", board, e.toString());
    }
    return fence;
  }

  private BoardSnapshot publishVersion(
      BoardDefinition board,
      Version next,
      Instant computedAt,
      ControlsApplied.Result shown,
      long fence) {
    long version = next.number();
    boolean redisUp = next.redisUp();
    BoardSnapshot snapshot =
        BoardSnapshot.of(
            board.name(),
            version,
            computedAt,
            shown.entries(),
            shown.reserve(),
            properties.defaultLimit());

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
  public List<BoardControl> controls(String board) {
    return controlled.read(board);
  }

  @Override
  public @Nullable BoardSnapshot current(String board) {
    return local.get(board);
  }
}
