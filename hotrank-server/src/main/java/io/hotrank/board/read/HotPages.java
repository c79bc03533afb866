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
 * often the board is published meanwhile: never an entry twice, never one skipped. Every published
 * version is kept in Redis for {@code hotrank.board.cursor-ttl} (written with the publish itself)
 * and, once read here, in a small local cache; a cursor of a version no longer kept is a 410.
 * Entries whose items were deleted since the version was computed are skipped, and the page is
 * filled from further down.
 */
@Component
class HotPages {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final BoardReader reader;
  private final BoardRedisStore redis;
  private final Cursors cursors;
  private final BoardHttp http;
  private final ItemReads items;
  private final int defaultLimit;
  private final Cache<String, BoardSnapshot> pinned;

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
  }

  /**
   * The page after {@code cursor} (an empty cursor: the first page of the current version), as a
   * board body with {@code nextCursor}.
   */
  byte[] page(BoardDefinition board, @Nullable Integer limit, String cursor) {
    BoardHttp.Window window = http.window(board, limit, null);
    if (window == null) {
      http.refuse(board, limit, null);
    }
    int size = window.limit();
    String kind = "hot:" + board.name();
    BoardSnapshot snapshot;
    int from;
    if (cursor.isEmpty()) {
      snapshot = reader.read(board.name()).snapshot();
      from = 0;
    } else {
      List<String> fields = cursors.decode(kind, cursor, 2);
      long version = Cursors.longField(fields, 0);
      from = (int) Cursors.longField(fields, 1);
      snapshot = version(board.name(), version);
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
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("board", snapshot.board());
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

  /** The snapshot of a pinned version: held here, live, or kept in Redis. */
  private BoardSnapshot version(String board, long version) {
    BoardSnapshot local = reader.local(board);
    if (local != null && local.version() == version) {
      return local;
    }
    String key = board + ":" + version;
    BoardSnapshot held = pinned.getIfPresent(key);
    if (held != null) {
      return held;
    }
    BoardSnapshot kept =
        redis
            .pinned(board, version)
            .map(payload -> BoardSnapshot.parse(payload, defaultLimit, "redis"))
            .orElse(null);
    if (kept == null) {
      // Kept cursor-ttl from its publish, but a version still live is served whatever its age.
      BoardSnapshot live = reader.read(board).snapshot();
      if (live.version() != version) {
        throw new BoardVersionExpiredException(board, version);
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
