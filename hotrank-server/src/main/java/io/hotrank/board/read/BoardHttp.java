package io.hotrank.board.read;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.problem.Violations;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.stereotype.Component;

/**
 * What a board read answers besides the body, computed once per board where possible, shared by
 * {@link BoardController} and {@link BoardReadFilter} so both paths answer alike. Thread-safe.
 */
@Component
class BoardHttp {

  static final String SOURCE_HEADER = "X-Hotrank-Source";
  static final String ORIGIN_HEADER = "X-Hotrank-Origin";

  private final BoardProperties properties;
  private final Clock clock;
  private final Map<String, String> cacheControl = new HashMap<>();

  BoardHttp(BoardRegistry registry, BoardProperties properties, Clock clock) {
    this.properties = properties;
    this.clock = clock;
    registry.all().forEach(board -> cacheControl.put(board.name(), cacheControl(board)));
  }

  /** A validated window of a board: entries to skip and entries to return. */
  record Window(int offset, int limit) {}

  /**
   * The window a read asks for, defaults applied.
   *
   * @return the window, or null when a parameter is out of range (see {@link #refuse})
   */
  @Nullable Window window(BoardDefinition board, Integer limit, Integer offset) {
    int window = limit == null ? Math.min(properties.defaultLimit(), board.size()) : limit;
    int skip = offset == null ? 0 : offset;
    if (window < 1 || window > board.size() || skip < 0 || skip >= board.size()) {
      return null;
    }
    return new Window(skip, window);
  }

  /**
   * Refuses out-of-range parameters, naming each.
   *
   * @throws io.hotrank.problem.InvalidRequestException always
   */
  void refuse(BoardDefinition board, @Nullable Integer limit, @Nullable Integer offset) {
    int window = limit == null ? Math.min(properties.defaultLimit(), board.size()) : limit;
    int skip = offset == null ? 0 : offset;
    Violations violations = new Violations();
    violations.check(
        window >= 1 && window <= board.size(),
        "limit",
        "must be between 1 and " + board.size() + ", was " + window);
    violations.check(
        skip >= 0 && skip < board.size(),
        "offset",
        "must be between 0 and " + (board.size() - 1) + ", was " + skip);
    violations.throwIfAny();
    throw new IllegalStateException("refuse() called for a valid window");
  }

  /** The read port serves offset pages only; cursor paging is on the main port. */
  static final String CURSOR_MESSAGE =
      "is not supported on the read port; page with offset, or with cursor on the main port";

  /** The Cache-Control value of a board. */
  String cacheControl(String board) {
    return cacheControl.get(board);
  }

  /** Seconds since the snapshot was computed, for the Age header. */
  String age(BoardSnapshot snapshot) {
    if (snapshot.version() == 0) {
      return "0"; // a segment with no item yet: nothing was computed
    }
    return Long.toString(
        Math.max(0, (clock.millis() - snapshot.computedAt().toEpochMilli()) / 1000));
  }

  /**
   * A CDN may keep a board for one refresh interval, serve it stale while it revalidates for
   * another, and serve it stale for a day if hotrank fails.
   */
  private static String cacheControl(BoardDefinition board) {
    Duration refresh = board.refreshInterval();
    return CacheControl.maxAge(refresh)
        .cachePublic()
        .staleWhileRevalidate(refresh)
        .staleIfError(Duration.ofDays(1))
        .getHeaderValue();
  }

  /** RFC 9110 If-None-Match: a list of entity tags, or "*"; weak tags compare equal. */
  static boolean notModified(@Nullable String ifNoneMatch, String etag) {
    if (ifNoneMatch == null) {
      return false;
    }
    if (ifNoneMatch.equals(etag)) {
      return true;
    }
    for (String tag : ifNoneMatch.split(",")) {
      String t = tag.strip();
      if (t.equals("*") || t.equals(etag) || t.equals("W/" + etag)) {
        return true;
      }
    }
    return false;
  }
}
