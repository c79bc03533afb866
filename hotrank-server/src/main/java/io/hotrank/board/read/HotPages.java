package io.hotrank.board.read;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.publish.BoardRedisStore;
import io.hotrank.item.Item;
import io.hotrank.item.ItemReads;
import io.hotrank.web.Cursors;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.RawValue;

/**
 * Cursor paging of a board (the hot feed): a page started with an empty cursor reads the current
 * version, and its cursor pins that version, so the next pages come from the same ranking however
 * often the board is published meanwhile: never an entry twice, never one skipped. A version a
 * cursor is handed out for is kept in Redis for {@code hotrank.board.cursor-ttl} from then (written
 * once a minute at most per version and instance; the answer waits {@link #KEEP_WAIT} at most for
 * it) and, once read here, in a small local cache; a version still live is served whatever its age;
 * a cursor of a version no longer kept is a 410. Only versions someone pages are kept: realtime
 * boards publish every second, and keeping each of their versions filled Redis for nothing. Entries
 * whose items were deleted since the version was computed are skipped, and the page is filled from
 * further down.
 */
@Component
class HotPages {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** How long a first page waits for its version to be kept in Redis. */
  static final Duration KEEP_WAIT = Duration.ofMillis(50);

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(HotPages.class);

  private final BoardReader reader;
  private final BoardRedisStore redis;
  private final Cursors cursors;
  private final BoardHttp http;
  private final ItemReads items;
  private final int defaultLimit;
  private final Cache<String, BoardSnapshot> pinned;

  /** Versions this instance kept in Redis lately, so that it writes each once a while at most. */
  private final Cache<String, Boolean> kept;

  HotPages(
      BoardReader reader,
      BoardRedisStore redis,
      Cursors cursors,
      ItemReads items,
      BoardProperties properties,
      BoardHttp http) {
    this.http = http;
    this.reader = reader;
    this.redis = redis;
    this.cursors = cursors;
    this.items = items;
    this.defaultLimit = properties.defaultLimit();
    this.pinned =
        Caffeine.newBuilder()
            .maximumSize(256)
            .expireAfterWrite(min(properties.cursorTtl(), Duration.ofMinutes(1)))
            .build();
    this.kept =
        Caffeine.newBuilder()
            .maximumSize(1024)
            .expireAfterWrite(min(properties.cursorTtl().dividedBy(2), Duration.ofMinutes(1)))
            .build();
  }

  /**
   * The page after {@code cursor} (an empty cursor: the first page of the current version), as a
   * board body with {@code nextCursor}.
   */
  byte[] page(
      BoardDefinition board, @Nullable String segment, @Nullable Integer limit, String cursor) {
    BoardHttp.Window window = http.window(board, limit, null);
    if (window == null) {
      http.refuse(board, limit, null);
    }
    int size = window.limit();
    String kind = "hot:" + BoardSnapshot.key(board.name(), segment);
    BoardSnapshot snapshot;
    int from;
    if (cursor.isEmpty()) {
      snapshot = reader.read(board.name(), segment).snapshot();
      from = 0;
    } else {
      List<String> fields = cursors.decode(kind, cursor, 2);
      long version = Cursors.longField(fields, 0);
      from = (int) Cursors.longField(fields, 1);
      snapshot = version(board.name(), segment, version);
    }
    List<BoardEntry> entries = snapshot.entries();
    List<RawValue> page = new ArrayList<>();
    int next = from;
    boolean more = false;
    while (next < entries.size() && !more) {
      // What the page still needs and one more (at least 8, so a run of deleted entries costs few
      // batches even once the page is full and only "is there more?" is left).
      int want = Math.max(8, size + 1 - page.size());
      List<BoardEntry> candidates = entries.subList(next, Math.min(entries.size(), next + want));
      Set<Long> live = live(board.biz(), candidates);
      for (BoardEntry e : candidates) {
        if (!live.contains(e.itemId())) {
          next++;
          continue;
        }
        if (page.size() == size) {
          more = true;
          break;
        }
        // Rendered as board reads render it, not by this mapper from the record.
        page.add(new RawValue(new String(snapshot.entryJson(next), StandardCharsets.UTF_8)));
        next++;
      }
    }
    if (more) {
      keepForCursors(snapshot);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("board", snapshot.board());
    if (snapshot.segment() != null) {
      body.put("segment", snapshot.segment());
    }
    body.put("version", snapshot.version());
    body.put("computedAt", snapshot.computedAt().toString());
    body.put("total", entries.size());
    body.put("items", page);
    body.put(
        "nextCursor",
        more
            ? cursors.encode(
                kind, List.of(Long.toString(snapshot.version()), Integer.toString(next)))
            : null);
    return JSON.writeValueAsBytes(body);
  }

  /**
   * Keeps the version in Redis for the cursor about to be handed out, before the answer, so that
   * the next page finds it on any instance; but the answer waits {@link #KEEP_WAIT} at most for
   * Redis: a Redis down or slow costs a client paging on another instance a 410 once the version is
   * no longer live there (this instance serves it from its own copies), never a slow first page.
   */
  private void keepForCursors(BoardSnapshot snapshot) {
    String key = snapshot.key() + ":" + snapshot.version();
    if (kept.asMap().putIfAbsent(key, Boolean.TRUE) != null) {
      return;
    }
    java.util.concurrent.CompletableFuture<Void> written =
        new java.util.concurrent.CompletableFuture<>();
    Thread.ofVirtual()
        .name("board-pin")
        .start(
            () -> {
              try {
                redis.pin(snapshot.key(), snapshot.version(), snapshot.payload());
                written.complete(null);
              } catch (RuntimeException e) {
                kept.invalidate(key);
                written.completeExceptionally(e);
              }
            });
    try {
      written.get(KEEP_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      log.debug(
          "Board '{}' v{} not kept for cursors yet: {}",
          snapshot.board(),
          snapshot.version(),
          e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The snapshot of a pinned version: held here, live, or kept in Redis. */
  private BoardSnapshot version(String board, @Nullable String segment, long version) {
    String stored = BoardSnapshot.key(board, segment);
    BoardSnapshot local =
        segment == null ? reader.local(board) : reader.read(board, segment).snapshot();
    if (local != null && local.version() == version) {
      return local;
    }
    String key = stored + ":" + version;
    BoardSnapshot held = pinned.getIfPresent(key);
    if (held != null) {
      return held;
    }
    BoardSnapshot kept =
        redis
            .pinned(stored, version)
            .map(payload -> BoardSnapshot.parse(payload, defaultLimit, "redis"))
            .orElse(null);
    if (kept == null) {
      // Kept cursor-ttl from its publish, but a version still live is served whatever its age.
      BoardSnapshot live = reader.read(board, segment).snapshot();
      if (live.version() != version) {
        throw new BoardVersionExpiredException(stored, version);
      }
      kept = live;
    }
    pinned.put(key, kept);
    return kept;
  }

  /** Which of the entries' items are live, from the item cache in one batch. */
  private Set<Long> live(String biz, List<BoardEntry> entries) {
    Set<Long> live = new HashSet<>();
    for (Item item : items.getAll(biz, entries.stream().map(BoardEntry::itemId).toList()).items()) {
      live.add(item.id());
    }
    return live;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
