package io.hotrank.board.read;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardNotFoundException;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.BoardUnavailableException;
import io.hotrank.board.SegmentBy;
import io.hotrank.board.SegmentRequiredException;
import io.hotrank.board.publish.LocalBoards;
import io.hotrank.board.publish.SnapshotSources;
import io.hotrank.cache.TieredLoader;
import io.hotrank.hotkey.HotKeys;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The read path of boards: the local snapshot, else Redis, else the database snapshot, else {@link
 * BoardUnavailableException}. A snapshot found in Redis or the database becomes the local one, so
 * the next read is local. Local misses go through a {@link TieredLoader}: concurrent misses of a
 * board share one load, and a board found nowhere is remembered as absent for 250 ms (at most the
 * Retry-After), so a board polled before it was ever computed costs the layers four lookups a
 * second, not one per request. Thread-safe.
 */
@Component
public class BoardReader implements io.hotrank.board.ServedBoards {

  private static final Logger log = LoggerFactory.getLogger(BoardReader.class);
  private static final Duration MISS_MEMORY = Duration.ofMillis(250);

  /** Where a served snapshot came from; sent as {@code X-Hotrank-Source}. */
  public enum Source {
    LOCAL,
    REDIS,
    DB;

    private final String header = name().toLowerCase(Locale.ROOT);

    public String header() {
      return header;
    }
  }

  /** A snapshot and the layer that supplied it. */
  public record Served(BoardSnapshot snapshot, Source source) {}

  private final BoardRegistry registry;
  private final LocalBoards local;
  private final Duration retryAfter;
  private final TieredLoader<String, BoardSnapshot> loader;
  private final Counter loads;

  /** Read counters per board and source, created once: the local hit path allocates nothing. */
  private final Map<String, Map<Source, Counter>> reads = new HashMap<>();

  private final Map<String, Map<Source, Counter>> fallbacks = new HashMap<>();

  /** Each board's hot-key name, {@code board:<name>}, built once. */
  private final Map<String, String> hotKey = new HashMap<>();

  private final HotKeys hotKeys;
  private final SnapshotSources sources;
  private final int defaultLimit;

  BoardReader(
      BoardRegistry registry,
      LocalBoards local,
      SnapshotSources sources,
      BoardProperties properties,
      Ticker ticker,
      MeterRegistry meters,
      HotKeys hotKeys) {
    this.registry = registry;
    this.hotKeys = hotKeys;
    this.sources = sources;
    this.defaultLimit = properties.defaultLimit();
    this.local = local;
    this.retryAfter = properties.unavailableRetryAfter();
    this.loads = meters.counter("hotrank.board.read.loads");
    for (BoardDefinition board : registry.all()) {
      Map<Source, Counter> bySource = new EnumMap<>(Source.class);
      Map<Source, Counter> failedBySource = new EnumMap<>(Source.class);
      for (Source source : Source.values()) {
        bySource.put(
            source,
            meters.counter(
                "hotrank.board.reads", "board", board.name(), "source", source.header()));
        if (source != Source.LOCAL) {
          failedBySource.put(
              source,
              meters.counter(
                  "hotrank.board.read.fallbacks", "board", board.name(), "layer", source.header()));
        }
      }
      reads.put(board.name(), bySource);
      hotKey.put(board.name(), "board:" + board.name());
      fallbacks.put(board.name(), failedBySource);
    }
    Duration missMemory =
        MISS_MEMORY.compareTo(retryAfter) < 0 ? MISS_MEMORY : properties.unavailableRetryAfter();
    this.loader =
        new TieredLoader<>(
            List.of(
                new TieredLoader.Tier<>(
                    Source.REDIS.header(),
                    name -> {
                      loads.increment(); // once per shared load, not per waiting reader
                      return sources.fromRedis(name);
                    }),
                new TieredLoader.Tier<>(Source.DB.header(), sources::fromDatabase)),
            missMemory,
            ticker,
            this::layerFailed);
  }

  /**
   * The newest snapshot available of a board.
   *
   * @throws BoardNotFoundException if no such board is configured
   * @throws BoardUnavailableException if no layer has a snapshot or none answers
   */
  public Served read(String name) {
    BoardDefinition board = registry.require(name);
    if (board.segmented()) {
      throw new SegmentRequiredException(board);
    }
    BoardSnapshot held = local(board.name());
    if (held != null) {
      return new Served(held, Source.LOCAL);
    }
    if (loader.missedRecently(name)) {
      throw new BoardUnavailableException(name, retryAfter);
    }
    return load(name).orElseThrow(() -> new BoardUnavailableException(name, retryAfter));
  }

  /**
   * The newest snapshot available of one segment board of a family: held here, else read from
   * Redis, else the database, and then held here (the local tier keeps the segments being read,
   * bounded). A segment no layer has, while both answer, has no item yet: it is served as an empty
   * board of version 0, held like any other until a version is published.
   *
   * @param segment null for a board that is one board: {@link #read(String)}
   * @throws BoardNotFoundException if no such board is configured
   * @throws io.hotrank.problem.InvalidRequestException if the board is not segmented, or the
   *     segment could never exist (field {@code segment})
   * @throws BoardUnavailableException if the segment is not held and neither layer answers
   */
  @Override
  public BoardSnapshot served(String name, @Nullable String segment) {
    return read(name, segment).snapshot();
  }

  public Served read(String name, @Nullable String segment) {
    if (segment == null) {
      return read(name);
    }
    BoardDefinition board = registry.require(name);
    SegmentBy split = board.segmentBy();
    if (split == null) {
      throw new InvalidRequestException(
          "segment", "board '" + name + "' is not segmented; read it at /api/v1/boards/" + name);
    }
    String invalid = split.invalid(segment);
    if (invalid != null) {
      throw new InvalidRequestException("segment", invalid);
    }
    String key = BoardSnapshot.key(name, segment);
    BoardSnapshot held = local.get(key);
    if (held != null) {
      count(name, Source.LOCAL);
      return new Served(held, Source.LOCAL);
    }
    BoardSnapshot absent = local.absent(key);
    if (absent != null) {
      count(name, Source.LOCAL);
      return new Served(absent, Source.LOCAL);
    }
    Source[] from = new Source[1];
    BoardSnapshot loaded =
        local.segment(
            key,
            k -> {
              boolean failed = false;
              try {
                Optional<BoardSnapshot> live = sources.fromRedis(k);
                if (live.isPresent()) {
                  from[0] = Source.REDIS;
                  return live.get();
                }
              } catch (RuntimeException e) {
                layerFailed(name, Source.REDIS.header(), e);
                failed = true;
              }
              try {
                Optional<BoardSnapshot> stored = sources.fromDatabase(k);
                if (stored.isPresent()) {
                  from[0] = Source.DB;
                  return stored.get();
                }
              } catch (RuntimeException e) {
                layerFailed(name, Source.DB.header(), e);
                failed = true;
              }
              if (failed) {
                throw new BoardUnavailableException(k, retryAfter);
              }
              return null; // held nowhere: an empty board, below
            });
    if (loaded == null) {
      // Both layers answered that the segment has no board: held apart, briefly (see absent).
      BoardSnapshot empty = local.holdAbsent(BoardSnapshot.empty(name, segment, defaultLimit));
      count(name, Source.DB);
      return new Served(empty, Source.DB);
    }
    if (from[0] == null) {
      // Another reader's load, joined: it was local by the time this one asked.
      count(name, Source.LOCAL);
      return new Served(loaded, Source.LOCAL);
    }
    // A version published while this load ran found the segment not yet held, and its notice was
    // not fetched: ask Redis once more, now that the segment is held and a notice would be.
    try {
      if (sources.redisVersion(key) > loaded.version()) {
        sources.fromRedis(key).ifPresent(local::install);
      }
    } catch (RuntimeException e) {
      // Redis failed just now: the version check catches the segment up.
    }
    count(name, from[0]);
    BoardSnapshot newest = local.get(key);
    return new Served(newest == null ? loaded : newest, from[0]);
  }

  /**
   * The local snapshot of a configured board, counted as a local read; null on a local miss
   * (nothing counted: the caller goes on to {@link #read}). Allocates nothing.
   */
  public @Nullable BoardSnapshot local(String name) {
    BoardSnapshot held = local.get(name);
    if (held != null) {
      count(name, Source.LOCAL);
    }
    return held;
  }

  /**
   * Loads a board from Redis, else the database, into the local layer, sharing a load in progress.
   * Used on a local miss and to preload at startup.
   */
  Optional<Served> load(String name) {
    return loader
        .load(name)
        .map(
            loaded -> {
              Source source = Source.valueOf(loaded.tier().toUpperCase(Locale.ROOT));
              local.install(loaded.value());
              count(name, source);
              return new Served(loaded.value(), source);
            });
  }

  private void layerFailed(String name, String layer, RuntimeException e) {
    Map<Source, Counter> failed = fallbacks.get(name);
    if (failed != null) {
      failed.get(Source.valueOf(layer.toUpperCase(Locale.ROOT))).increment();
    }
    log.warn("Board '{}': {} layer unavailable on read ({})", name, layer, e.toString());
  }

  private void count(String board, Source source) {
    reads.get(board).get(source).increment();
    hotKeys.record(hotKey.get(board));
  }
}
