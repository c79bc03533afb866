package io.hotrank.board;

import io.hotrank.web.Violations;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The board endpoints of the v1 API: list, read, and the admin recompute. */
@RestController
class BoardController {

  static final String SOURCE_HEADER = "X-Hotrank-Source";
  static final String ORIGIN_HEADER = "X-Hotrank-Origin";

  private final BoardRegistry registry;
  private final BoardReader reader;
  private final BoardRecomputer recomputer;
  private final LocalBoards local;
  private final BoardProperties properties;
  private final Clock clock;
  private final Map<String, String> cacheControl = new HashMap<>();

  BoardController(BoardRegistry registry, BoardReader reader, BoardRecomputer recomputer,
      LocalBoards local, BoardProperties properties, Clock clock) {
    this.registry = registry;
    this.reader = reader;
    this.recomputer = recomputer;
    this.local = local;
    this.properties = properties;
    this.clock = clock;
    registry.all().forEach(board -> cacheControl.put(board.name(), cacheControl(board)));
  }

  @GetMapping("/api/v1/boards")
  List<Map<String, Object>> list() {
    return registry.all().stream().map(board -> {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("name", board.name());
      view.put("biz", board.biz());
      view.put("algorithm", board.algorithm());
      view.put("size", board.size());
      view.put("window", board.window().toString());
      view.put("refresh", board.refresh());
      BoardSnapshot held = local.get(board.name()).orElse(null);
      view.put("version", held == null ? null : held.version());
      view.put("computedAt", held == null ? null : held.computedAt().toString());
      return view;
    }).toList();
  }

  @GetMapping("/api/v1/boards/{name}")
  ResponseEntity<byte[]> read(
      @PathVariable String name,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset,
      @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
    BoardDefinition board = registry.require(name);
    int window = limit == null ? Math.min(properties.defaultLimit(), board.size()) : limit;
    int skip = offset == null ? 0 : offset;
    if (window < 1 || window > board.size() || skip < 0 || skip >= board.size()) {
      Violations violations = new Violations();
      violations.check(window >= 1 && window <= board.size(), "limit",
          "must be between 1 and " + board.size() + ", was " + window);
      violations.check(skip >= 0 && skip < board.size(), "offset",
          "must be between 0 and " + (board.size() - 1) + ", was " + skip);
      violations.throwIfAny();
    }
    BoardReader.Served served = reader.read(name);
    BoardSnapshot snapshot = served.snapshot();
    long age = Math.max(0, Duration.between(snapshot.computedAt(), clock.instant()).toSeconds());
    HttpHeaders headers = new HttpHeaders();
    headers.set(HttpHeaders.ETAG, snapshot.etag());
    headers.set(HttpHeaders.CACHE_CONTROL, cacheControl.get(name));
    headers.set(SOURCE_HEADER, served.source().header());
    headers.set(ORIGIN_HEADER, snapshot.origin());
    headers.set(HttpHeaders.AGE, Long.toString(age));
    if (matches(ifNoneMatch, snapshot.etag())) {
      return new ResponseEntity<>(headers, HttpStatus.NOT_MODIFIED);
    }
    headers.setContentType(MediaType.APPLICATION_JSON);
    return new ResponseEntity<>(snapshot.body(skip, window), headers, HttpStatus.OK);
  }

  @PostMapping("/api/v1/admin/boards/{name}/recompute")
  Map<String, Object> recompute(@PathVariable String name) {
    BoardSnapshot published = recomputer.recompute(name);
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("board", published.board());
    view.put("version", published.version());
    view.put("computedAt", published.computedAt().toString());
    view.put("size", published.size());
    return view;
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
  private static boolean matches(String ifNoneMatch, String etag) {
    if (ifNoneMatch == null) {
      return false;
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
