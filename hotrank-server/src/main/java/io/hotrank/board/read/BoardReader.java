package io.hotrank.board.read;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardNotFoundException;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.BoardUnavailableException;
import io.hotrank.board.publish.LocalBoards;
import io.hotrank.board.publish.SnapshotSources;
import io.hotrank.cache.TieredLoader;
import io.hotrank.hotkey.HotKeys;
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
public class BoardReader {

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
