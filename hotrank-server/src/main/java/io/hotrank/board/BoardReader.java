package io.hotrank.board;

import io.hotrank.cache.RedisReadGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The read path of boards: the local snapshot, else Redis, else the database snapshot, else {@link
 * BoardUnavailableException}. A snapshot found in Redis or the database becomes the local one, so
 * the next read is local. Thread-safe.
 */
@Component
public class BoardReader {

  private static final Logger log = LoggerFactory.getLogger(BoardReader.class);

  /** Where a served snapshot came from; sent as {@code X-Hotrank-Source}. */
  public enum Source {
    LOCAL,
    REDIS,
    DB;

    public String header() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** A snapshot and the layer that supplied it. */
  public record Served(BoardSnapshot snapshot, Source source) {}

  private final BoardRegistry registry;
  private final LocalBoards local;
  private final BoardRedisStore redis;
  private final BoardSnapshotStore database;
  private final RedisReadGuard guard;
  private final BoardProperties properties;
  private final MeterRegistry meters;
  private static final java.time.Duration NOTHING_MEMORY = java.time.Duration.ofMillis(250);

  private final Map<String, CompletableFuture<Optional<Served>>> loading =
      new ConcurrentHashMap<>();
  private final Map<String, Long> nothingUntil = new ConcurrentHashMap<>();
  private final Counter loads;

  /** Read counters per board and source, created once: the local hit path allocates nothing. */
  private final Map<String, Map<Source, Counter>> reads = new HashMap<>();

  BoardReader(
      BoardRegistry registry,
      LocalBoards local,
      BoardRedisStore redis,
      BoardSnapshotStore database,
      RedisReadGuard guard,
      BoardProperties properties,
      MeterRegistry meters) {
    this.registry = registry;
    this.local = local;
    this.redis = redis;
    this.database = database;
    this.guard = guard;
    this.properties = properties;
    this.meters = meters;
    this.loads = meters.counter("hotrank.board.read.loads");
    for (BoardDefinition board : registry.all()) {
      Map<Source, Counter> bySource = new EnumMap<>(Source.class);
      for (Source source : Source.values()) {
        bySource.put(
            source,
            meters.counter(
                "hotrank.board.reads", "board", board.name(), "source", source.header()));
      }
      reads.put(board.name(), bySource);
    }
  }

  /**
   * The newest snapshot available of a board.
   *
   * @throws BoardNotFoundException if no such board is configured
   * @throws BoardUnavailableException if no layer has a snapshot or none answers
   */
  public Served read(String name) {
    BoardDefinition board = registry.require(name);
    BoardSnapshot held = local.getOrNull(board.name());
    if (held != null) {
      count(board.name(), Source.LOCAL);
      return new Served(held, Source.LOCAL);
    }
    Long until = nothingUntil.get(name);
    if (until != null && until - System.nanoTime() > 0) {
      throw new BoardUnavailableException(name, properties.unavailableRetryAfter());
    }
    return loadOnce(name)
        .orElseThrow(() -> new BoardUnavailableException(name, properties.unavailableRetryAfter()));
  }

  /**
   * One load per board at a time: concurrent misses wait for the load in progress instead of each
   * asking Redis and the database (single flight). A load that finds nothing is remembered for 250
   * ms, so a board polled before it was ever computed costs the layers four lookups a second, not
   * one per request.
   */
  private Optional<Served> loadOnce(String name) {
    CompletableFuture<Optional<Served>> mine = new CompletableFuture<>();
    CompletableFuture<Optional<Served>> running = loading.putIfAbsent(name, mine);
    if (running != null) {
      try {
        return running.join();
      } catch (java.util.concurrent.CompletionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : e;
      }
    }
    try {
      loads.increment();
      Optional<Served> found = load(name);
      if (found.isEmpty()) {
        long quiet =
            Math.min(NOTHING_MEMORY.toNanos(), properties.unavailableRetryAfter().toNanos());
        nothingUntil.put(name, System.nanoTime() + quiet);
      } else {
        nothingUntil.remove(name);
      }
      mine.complete(found);
      return found;
    } catch (RuntimeException e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      loading.remove(name, mine);
    }
  }

  /**
   * The local snapshot of a configured board, counted as a local read; null on a local miss
   * (nothing counted: the caller goes on to {@link #read}). Allocates nothing.
   */
  BoardSnapshot localOrNull(String name) {
    BoardSnapshot held = local.getOrNull(name);
    if (held != null) {
      count(name, Source.LOCAL);
    }
    return held;
  }

  /**
   * Loads a board from Redis, else the database, into the local layer. Used on a local miss and to
   * preload at startup.
   */
  Optional<Served> load(String name) {
    Optional<Served> found = fetch(name, Source.REDIS, this::redisLive);
    if (found.isEmpty()) {
      found = fetch(name, Source.DB, database::find);
    }
    found.ifPresent(
        served -> {
          local.install(served.snapshot());
          count(name, served.source());
        });
    return found;
  }

  /** The live payload in Redis, within the read timeout and through the breaker. */
  Optional<byte[]> redisLive(String name) {
    return guard.read("live payload of " + name, () -> redis.live(name));
  }

  /** The live version in Redis, 0 if none, read within the timeout. */
  long redisVersion(String name) {
    return guard.read("version of " + name, () -> redis.liveVersion(name));
  }

  /** The snapshot Redis holds for a board, read within the timeout; installs it if newer. */
  Optional<BoardSnapshot> refreshFromRedis(String name) {
    return redisLive(name).map(payload -> installParsed(payload, Source.REDIS));
  }

  /** The snapshot the database holds for a board; installs it if newer. */
  Optional<BoardSnapshot> refreshFromDatabase(String name) {
    return database.find(name).map(payload -> installParsed(payload, Source.DB));
  }

  private BoardSnapshot installParsed(byte[] payload, Source source) {
    BoardSnapshot snapshot =
        BoardSnapshot.parse(payload, properties.defaultLimit(), source.header());
    if (local.install(snapshot)) {
      log.info(
          "Board '{}' v{} installed from {}",
          snapshot.board(),
          snapshot.version(),
          source.header());
    }
    return snapshot;
  }

  private Optional<Served> fetch(
      String name, Source source, Function<String, Optional<byte[]>> layer) {
    try {
      return layer
          .apply(name)
          .map(
              payload ->
                  new Served(
                      BoardSnapshot.parse(payload, properties.defaultLimit(), source.header()),
                      source));
    } catch (RuntimeException e) {
      meters
          .counter("hotrank.board.read.fallbacks", "board", name, "layer", source.header())
          .increment();
      log.warn(
          "Board '{}': {} layer unavailable on read ({})", name, source.header(), e.toString());
      return Optional.empty();
    }
  }

  private void count(String board, Source source) {
    reads.get(board).get(source).increment();
  }
}
