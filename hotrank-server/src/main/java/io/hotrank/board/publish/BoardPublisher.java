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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Publishes a board to every layer under a fencing token: the database snapshot row, then Redis
 * (fresh key swapped live by a script), then this instance's local snapshot. Both shared layers
 * refuse a token lower than the highest that has published the board; a refusal stops the publish
 * there (a family's chunk of segment boards, whose Redis calls go out together, stops once their
 * answers are in), is logged and counted ({@code hotrank.board.publish.rejected}) and is not
 * retried. A layer that fails is logged and counted, never fatal.
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
 * <p>Why a computation's result is neither lost nor rolled back by a re-publish racing it. A
 * re-publish republishes older content (its base's) under a newer number, so version order alone
 * would let it win over a computation in two ways, both closed here:
 *
 * <ul>
 *   <li>the re-publish takes its version after the computation and goes live first: the computation
 *       is refused as not newer. It sees the refusing version was computed earlier than its own
 *       result, takes a fresh version, reads the controls again and publishes again ({@link
 *       #publish}), so it lands above the re-publish, with the change applied;
 *   <li>the computation goes live after the re-publish read its base, under a lower version: the
 *       re-publish is conditional on its base in both shared layers (the row's {@code version <=
 *       base}, the script's live version at most the base), so it is refused, rebuilds on the
 *       computation's snapshot and publishes again ({@link #republish}).
 * </ul>
 *
 * Both retries are bounded; each needs a new interleaving with another publish to be needed again,
 * and after the last one the newer version is served, as before. The fence guards are unchanged: a
 * retry keeps its token, so a stale lease holder is still refused.
 *
 * <p>With Redis down, versions come from the newest known plus one and notices are not sent, so the
 * argument holds only once Redis is back; the instances' version check then converges them.
 */
@Component
public class BoardPublisher implements BoardSink {

  private static final Logger log = LoggerFactory.getLogger(BoardPublisher.class);

  /**
   * How many times in all a re-publish is tried: refused for its fence, or because a version above
   * its base was published meanwhile, it takes a new version and tries again.
   */
  private static final int REPUBLISH_ATTEMPTS = 5;

  /**
   * How many times in all a computation is published: refused by a newer version of older content
   * (a re-publish), it takes a new version and tries again.
   */
  private static final int PUBLISH_ATTEMPTS = 3;

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
   * version.
   *
   * <p>A publish refused because an equal or newer version is stored or live looks at that version.
   * If it was computed earlier than this result, it is a re-publish of older content that took its
   * version after this one did (a control change): this result then takes a fresh version, reads
   * the controls again and tries again (at most {@value #PUBLISH_ATTEMPTS} times in all), so the
   * newest computation lands rather than being lost until the next run. Otherwise the newer version
   * is at least as fresh, and this instance serves it instead of its own.
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
    return publish(board, null, computedAt, entries, fence);
  }

  /**
   * {@link #publish(BoardDefinition, Instant, List, long)} of one segment board of a family, with
   * the family's controls and the segment's applied (see {@link ControlledEntries#read(String,
   * String)}).
   *
   * @param segment the segment; null for a board that is one board
   */
  public BoardSnapshot publish(
      BoardDefinition board,
      @Nullable String segment,
      Instant computedAt,
      List<BoardEntry> entries,
      long fence) {
    for (int attempt = 1; ; attempt++) {
      Version version = nextVersion(board, segment);
      // After the version, never before: see the ordering argument in the class comment.
      List<BoardControl> controls = controlled.read(board, segment);
      ControlsApplied.Result shown =
          controlled.apply(
              board,
              BoardSnapshot.key(board.name(), segment),
              entries,
              controls,
              computedAt,
              clock.instant(),
              List.of(),
              true);
      Attempt tried =
          publishVersion(
              board, segment, version, computedAt, shown, fence, BoardRedisStore.NO_BASE);
      if (!tried.refused()) {
        return tried.own();
      }
      boolean older = tried.newer().map(n -> n.computedAt().isBefore(computedAt)).orElse(false);
      if (!older || attempt == PUBLISH_ATTEMPTS) {
        log.warn(
            "Board '{}' v{}: an equal or newer version is stored or live; serving that one",
            board.name(),
            version.number());
        return installed(tried.newer(), tried.own());
      }
      log.info(
          "Board '{}' v{}: a re-publish of older content took a newer version; publishing again",
          board.name(),
          version.number());
    }
  }

  /**
   * Publishes the board's newest snapshot again under a new version, with the controls as they are
   * in the database now: what a control change does after it commits. The newest snapshot is the
   * newest of the live one in Redis, this instance's and the database's; its entries' controls are
   * undone and the current ones applied, looking up items newly pinned or boosted and the {@code
   * released} ones (a control removed or expired). It is published under the highest fencing token
   * the shared layers hold, so the guards accept it and a stale computation is still refused.
   *
   * <p>It is conditional on its base (a compare-and-swap in both shared layers): it goes live only
   * while no version above the snapshot it started from is stored or live. So a computation that
   * went live after the re-publish read its base is never replaced by the base's older content.
   * Refused that way, it rebuilds from the new newest and tries again, unless the newer version is
   * above its own: that one took its version after this re-publish did, so after the change
   * committed, and applied it already (see the class comment).
   *
   * @param released items whose control was removed: ranked by their own score if they make it
   * @return the snapshot this instance serves afterwards; empty if the board was never published
   *     (its first computation applies the controls)
   * @throws StalePublishException if still refused for its fence after {@value #REPUBLISH_ATTEMPTS}
   *     attempts
   */
  public Optional<BoardSnapshot> republish(BoardDefinition board, Collection<Long> released) {
    return republish(board, null, released);
  }

  /**
   * {@link #republish(BoardDefinition, Collection)} of one segment board of a family.
   *
   * @param segment the segment; null for a board that is one board
   */
  @Override
  public Optional<BoardSnapshot> republish(
      BoardDefinition board, @Nullable String segment, Collection<Long> released) {
    String key = BoardSnapshot.key(board.name(), segment);
    for (int attempt = 1; ; attempt++) {
      Version version = nextVersion(board, segment);
      List<BoardControl> controls = controlled.read(board, segment);
      BoardSnapshot newest = newest(key);
      if (newest == null) {
        return Optional.empty();
      }
      long fence = highestFence(key);
      List<BoardEntry> candidates = new ArrayList<>(newest.entries());
      candidates.addAll(newest.reserve());
      ControlsApplied.Result shown =
          controlled.apply(
              board,
              key,
              candidates,
              controls,
              newest.computedAt(),
              clock.instant(),
              released,
              true);
      Attempt tried;
      try {
        tried =
            publishVersion(
                board, segment, version, newest.computedAt(), shown, fence, newest.version());
      } catch (StalePublishException e) {
        if (attempt == REPUBLISH_ATTEMPTS) {
          throw e;
        }
        continue;
      }
      if (!tried.refused()) {
        return Optional.of(tried.own());
      }
      boolean later = tried.newer().map(n -> n.version() > version.number()).orElse(false);
      if (later || attempt == REPUBLISH_ATTEMPTS) {
        return Optional.of(installed(tried.newer(), tried.own()));
      }
      log.info(
          "Board '{}' v{}: a version above its base v{} was published meanwhile; rebuilding",
          board.name(),
          version.number(),
          newest.version());
    }
  }

  /**
   * How many chunks of segment boards a family's run publishes at once: each chunk waits on the
   * database and Redis in turn, so a few in flight divide a run's publishing time while leaving
   * most of the connection pool (10 by default) to reads and ingest.
   */
  public static final int PUBLISH_CONCURRENCY = 4;

  /**
   * At most this many segment boards per chunk: one transaction of rows and one query of controls
   * each. A family of fewer than {@link #PUBLISH_CONCURRENCY} full chunks is split in {@link
   * #PUBLISH_CONCURRENCY} smaller ones (of at least {@link #PUBLISH_CHUNK_MIN}), so that a batch
   * run's 100 segments are not published one after the other in one chunk; a live family's look
   * that changed fewer than 50 stays one chunk, one transaction.
   */
  public static final int PUBLISH_CHUNK = 200;

  /** The fewest segment boards a chunk holds when a family is split for concurrency. */
  public static final int PUBLISH_CHUNK_MIN = 25;

  /** Segment boards per chunk for a family of {@code segments}. */
  static int chunkSize(int segments) {
    if (segments < 2 * PUBLISH_CHUNK_MIN) {
      return Math.max(1, segments);
    }
    int even = (segments + PUBLISH_CONCURRENCY - 1) / PUBLISH_CONCURRENCY;
    return Math.clamp(even, PUBLISH_CHUNK_MIN, PUBLISH_CHUNK);
  }

  /**
   * Publishes many segment boards of one family in chunks of {@link #chunkSize} ({@link
   * #publishChunk}), {@link #PUBLISH_CONCURRENCY} chunks at a time on virtual threads, under the
   * run's fence. The first failure (a stale fence, a database refusing the controls' read) stops
   * it: what was published stays, and the caller publishes the rest later. Once {@code cancelled}
   * answers true, no further chunk starts.
   */
  @Override
  public void publishSegments(
      BoardDefinition board,
      Map<String, List<BoardEntry>> work,
      Instant computedAt,
      long fence,
      BooleanSupplier cancelled) {
    int chunkSize = chunkSize(work.size());
    List<Map<String, List<BoardEntry>>> chunks = new ArrayList<>();
    Map<String, List<BoardEntry>> chunk = new LinkedHashMap<>();
    for (Map.Entry<String, List<BoardEntry>> segment : work.entrySet()) {
      chunk.put(segment.getKey(), segment.getValue());
      if (chunk.size() == chunkSize) {
        chunks.add(chunk);
        chunk = new LinkedHashMap<>();
      }
    }
    if (!chunk.isEmpty()) {
      chunks.add(chunk);
    }
    Semaphore permits = new Semaphore(PUBLISH_CONCURRENCY);
    List<Future<?>> published = new ArrayList<>(chunks.size());
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (Map<String, List<BoardEntry>> each : chunks) {
        if (cancelled.getAsBoolean()) {
          break;
        }
        permits.acquireUninterruptibly();
        failFast(published); // a stale fence stops the run early, not after every segment
        published.add(
            pool.submit(
                () -> {
                  try {
                    publishChunk(board, each, computedAt, fence);
                  } finally {
                    permits.release();
                  }
                }));
      }
      for (Future<?> each : published) {
        join(each);
      }
    }
  }

  /** Rethrows the failure of a finished publish, if any. */
  private static void failFast(List<Future<?>> published) {
    for (Future<?> each : published) {
      if (each.isDone()) {
        join(each);
      }
    }
  }

  private static void join(Future<?> publish) {
    try {
      publish.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while publishing segments", e);
    }
  }

  /**
   * Publishes segment boards of one family, computed together, as {@link #publish(BoardDefinition,
   * String, Instant, List, long)} publishes each, with their database rows written in one
   * transaction ({@link BoardSnapshotStore#saveAll}) and their controls read in one query: a family
   * of thousands of segments costs a few commits, not one per segment. Each segment still takes its
   * version before its controls are read (the ordering argument of the class comment holds per
   * segment); one refused as not newer is published again on its own, through the retrying path.
   *
   * @param segments each segment's candidates, best first
   * @throws StalePublishException if a higher fencing token has published one of them
   */
  private void publishChunk(
      BoardDefinition board,
      Map<String, List<BoardEntry>> segments,
      Instant computedAt,
      long fence) {
    List<String> names = new ArrayList<>(segments.keySet());
    List<String> keys = names.stream().map(s -> BoardSnapshot.key(board.name(), s)).toList();
    Map<String, Long> stored;
    try {
      stored = database.versions(keys);
    } catch (RuntimeException e) {
      log.warn("Board '{}': database unavailable for the version floors ({})", board.name(), e);
      stored = Map.of();
    }
    Map<String, Long> floors = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      String key = keys.get(i);
      floors.put(names.get(i), Math.max(local.version(key), stored.getOrDefault(key, 0L)));
    }
    List<Called<Long>> taken =
        concurrently(
            names,
            segment ->
                redis.nextVersion(BoardSnapshot.key(board.name(), segment), floors.get(segment)));
    Map<String, Version> versions = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      long floor = floors.get(names.get(i));
      Called<Long> next = taken.get(i);
      if (next.failure() == null) {
        versions.put(names.get(i), new Version(Objects.requireNonNull(next.value()), true));
      } else {
        failure("redis", board, floor + 1, next.failure());
        versions.put(names.get(i), new Version(floor + 1, false));
      }
    }
    // After the versions, never before: see the ordering argument in the class comment.
    Map<String, List<BoardControl>> controls = controlled.readAll(board, names);
    List<BoardSnapshot> snapshots = new ArrayList<>(names.size());
    for (String segment : names) {
      ControlsApplied.Result shown =
          controlled.apply(
              board,
              BoardSnapshot.key(board.name(), segment),
              segments.get(segment),
              controls.getOrDefault(segment, List.of()),
              computedAt,
              clock.instant(),
              List.of(),
              true);
      snapshots.add(
          BoardSnapshot.of(
              board.name(),
              segment,
              versions.get(segment).number(),
              computedAt,
              shown.entries(),
              shown.reserve(),
              properties.defaultLimit()));
    }
    Map<String, BoardSnapshotStore.Saved> saved = Map.of();
    try {
      saved = database.saveAll(snapshots, fence);
    } catch (RuntimeException e) {
      failure("db", board, snapshots.isEmpty() ? 0 : snapshots.getFirst().version(), e);
    }
    List<BoardSnapshot> toRedis = new ArrayList<>(snapshots.size());
    List<String> again = new ArrayList<>();
    for (BoardSnapshot snapshot : snapshots) {
      BoardSnapshotStore.Saved outcome = saved.get(snapshot.key());
      if (outcome == BoardSnapshotStore.Saved.STALE_FENCE) {
        throw rejected(board, snapshot.version(), fence, "db");
      }
      if (outcome == BoardSnapshotStore.Saved.NOT_NEWER) {
        again.add(snapshot.segment());
      } else if (versions.get(snapshot.segment()).redisUp()) {
        toRedis.add(snapshot);
      } else {
        local.install(snapshot);
      }
    }
    List<Called<BoardRedisStore.Outcome>> outcomes =
        concurrently(toRedis, snapshot -> redis.publish(snapshot, fence, BoardRedisStore.NO_BASE));
    // A stale fence anywhere stops the chunk before anything else of it is installed or retried
    // (the calls went out together, so segments after it may be live in Redis already; the
    // publisher holding the newer fence replaces them).
    for (int i = 0; i < toRedis.size(); i++) {
      if (outcomes.get(i).value() == BoardRedisStore.Outcome.STALE_FENCE) {
        throw rejected(board, toRedis.get(i).version(), fence, "redis");
      }
    }
    for (int i = 0; i < toRedis.size(); i++) {
      BoardSnapshot snapshot = toRedis.get(i);
      Called<BoardRedisStore.Outcome> outcome = outcomes.get(i);
      if (outcome.failure() != null) {
        failure("redis", board, snapshot.version(), outcome.failure());
      } else if (outcome.value() == BoardRedisStore.Outcome.NEWER_LIVE) {
        again.add(snapshot.segment());
        continue;
      }
      local.install(snapshot);
    }
    // Refused as not newer by a layer: published again, each on its own, through the retrying
    // path, once the chunk's other boards are live.
    for (String segment : again) {
      publish(board, segment, computedAt, segments.get(segment), fence);
    }
  }

  /** What a call answered, or how it failed. */
  private record Called<T>(@Nullable T value, @Nullable RuntimeException failure) {}

  /**
   * Redis calls of segment publishes in flight at once on this instance, across chunks and
   * families: enough to fill the pipeline, few enough that a read of a board waiting behind them on
   * the shared connection is not held up for long.
   */
  static final int REDIS_IN_FLIGHT = 64;

  private final Semaphore redisInFlight = new Semaphore(REDIS_IN_FLIGHT);

  /**
   * Calls {@code call} on each of {@code inputs}, up to {@link #REDIS_IN_FLIGHT} at once on this
   * instance, one virtual thread each, and answers in their order. Lettuce pipelines the commands
   * of concurrent callers on its shared connection, so a chunk's hundreds of Redis round trips (one
   * or two per segment board, each on its own slot) overlap instead of following one another.
   */
  private <T, R> List<Called<R>> concurrently(List<T> inputs, Function<T, R> call) {
    if (inputs.isEmpty()) {
      return List.of();
    }
    List<Future<Called<R>>> calls = new ArrayList<>(inputs.size());
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (T input : inputs) {
        calls.add(
            pool.submit(
                () -> {
                  redisInFlight.acquireUninterruptibly();
                  try {
                    return new Called<R>(call.apply(input), null);
                  } catch (RuntimeException e) {
                    return new Called<R>(null, e);
                  } finally {
                    redisInFlight.release();
                  }
                }));
      }
    }
    List<Called<R>> answered = new ArrayList<>(calls.size());
    for (Future<Called<R>> each : calls) {
      answered.add(each.resultNow()); // the pool's close waited for every call
    }
    return answered;
  }

  /** A version and whether Redis handed it out. */
  private record Version(long number, boolean redisUp) {}

  /**
   * What one publish attempt did: {@code own} was published, or it was refused by an equal or newer
   * version, {@code newer} (empty if that could not be read).
   */
  private record Attempt(BoardSnapshot own, boolean refused, Optional<BoardSnapshot> newer) {

    static Attempt published(BoardSnapshot own) {
      return new Attempt(own, false, Optional.empty());
    }

    static Attempt refused(BoardSnapshot own, Optional<BoardSnapshot> newer) {
      return new Attempt(own, true, newer);
    }
  }

  private Version nextVersion(BoardDefinition board, @Nullable String segment) {
    String key = BoardSnapshot.key(board.name(), segment);
    long floor = floor(key);
    try {
      return new Version(redis.nextVersion(key, floor), true);
    } catch (RuntimeException e) {
      failure("redis", board, floor + 1, e);
      return new Version(floor + 1, false);
    }
  }

  /** The newest snapshot of a board among Redis's live one, this instance's and the database's. */
  private @Nullable BoardSnapshot newest(String board) {
    BoardSnapshot newest = local.get(board);
    try {
      Optional<byte[]> live = redis.live(board);
      if (live.isPresent()) {
        newest = newer(newest, BoardSnapshot.parse(live.get(), properties.defaultLimit(), "redis"));
      }
    } catch (RuntimeException e) {
      log.warn("Board '{}': Redis unavailable for the re-publish ({})", board, e.toString());
    }
    try {
      // Also when Redis answered: a computation stores its row before it goes live in Redis, and
      // a re-publish built on the older live one would only be refused by the row's condition.
      Optional<byte[]> stored = database.find(board);
      if (stored.isPresent()) {
        newest = newer(newest, BoardSnapshot.parse(stored.get(), properties.defaultLimit(), "db"));
      }
    } catch (RuntimeException e) {
      if (newest == null) {
        throw e;
      }
      log.warn("Board '{}': database unavailable for the re-publish ({})", board, e.toString());
    }
    return newest;
  }

  private static BoardSnapshot newer(@Nullable BoardSnapshot held, BoardSnapshot other) {
    return held == null || other.version() > held.version() ? other : held;
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

  private Attempt publishVersion(
      BoardDefinition board,
      @Nullable String segment,
      Version next,
      Instant computedAt,
      ControlsApplied.Result shown,
      long fence,
      long base) {
    long version = next.number();
    boolean redisUp = next.redisUp();
    BoardSnapshot snapshot =
        BoardSnapshot.of(
            board.name(),
            segment,
            version,
            computedAt,
            shown.entries(),
            shown.reserve(),
            properties.defaultLimit());

    BoardSnapshotStore.Saved saved = null;
    try {
      saved = database.save(snapshot, fence, base);
    } catch (RuntimeException e) {
      failure("db", board, version, e);
    }
    if (saved == BoardSnapshotStore.Saved.STALE_FENCE) {
      throw rejected(board, version, fence, "db");
    }
    if (saved == BoardSnapshotStore.Saved.NOT_NEWER) {
      // Another publisher stored this version or a newer one (or, for a re-publish, one above its
      // base): never put this content live under a number the database gives to other content.
      return Attempt.refused(
          snapshot,
          database
              .find(snapshot.key())
              .map(p -> BoardSnapshot.parse(p, properties.defaultLimit(), "db")));
    }
    if (redisUp) {
      try {
        switch (redis.publish(snapshot, fence, base)) {
          case STALE_FENCE -> throw rejected(board, version, fence, "redis");
          case NEWER_LIVE -> {
            return Attempt.refused(
                snapshot,
                redis
                    .live(snapshot.key())
                    .map(p -> BoardSnapshot.parse(p, properties.defaultLimit(), "redis")));
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
    return Attempt.published(snapshot);
  }

  private BoardSnapshot installed(Optional<BoardSnapshot> newer, BoardSnapshot fallback) {
    return newer
        .map(
            snapshot -> {
              local.install(snapshot);
              BoardSnapshot held = local.get(snapshot.key());
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
  public List<String> segmentsWithEntries(String family) {
    return database.segmentsWithEntries(family);
  }

  @Override
  public List<String> readSegments(String family, int max) {
    return local.segmentsOf(family, max);
  }

  @Override
  public Map<String, List<BoardControl>> controls(BoardDefinition board, List<String> segments) {
    return controlled.readAll(board, segments);
  }

  @Override
  public @Nullable BoardSnapshot current(String board) {
    return local.get(board);
  }
}
