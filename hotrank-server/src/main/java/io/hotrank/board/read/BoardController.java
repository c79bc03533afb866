package io.hotrank.board.read;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.SegmentRequiredException;
import io.hotrank.board.publish.BoardSnapshotStore;
import io.hotrank.board.publish.LocalBoards;
import io.hotrank.board.publish.SnapshotSources;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.web.Cursors;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The board read endpoints of the v1 API: the list of boards, and one board. */
@RestController
class BoardController {

  private final BoardRegistry registry;
  private final BoardReader reader;
  private final LocalBoards local;
  private final BoardHttp http;
  private final HotPages hotPages;
  private final SnapshotSources sources;
  private final Cursors cursors;

  static final int DEFAULT_SEGMENTS = 50;
  static final int MAX_SEGMENTS = 1000;

  BoardController(
      BoardRegistry registry,
      BoardReader reader,
      LocalBoards local,
      BoardHttp http,
      HotPages hotPages,
      SnapshotSources sources,
      Cursors cursors) {
    this.sources = sources;
    this.cursors = cursors;
    this.hotPages = hotPages;
    this.registry = registry;
    this.reader = reader;
    this.local = local;
    this.http = http;
  }

  /**
   * A configured board as the list shows it.
   *
   * @param segmentBy what splits it into segment boards; absent for a board that is one board
   * @param version the version this instance serves; null before the first
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "BoardListed")
  record Listed(
      String name,
      String biz,
      String type,
      String algorithm,
      int size,
      String window,
      String refresh,
      @com.fasterxml.jackson.annotation.JsonInclude(
              com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
          @Nullable String segmentBy,
      @Nullable Long version,
      @Nullable String computedAt) {}

  @GetMapping("/api/v1/boards")
  List<Listed> list() {
    return registry.all().stream()
        .map(
            board -> {
              BoardSnapshot held = local.get(board.name());
              return new Listed(
                  board.name(),
                  board.biz(),
                  board.kind().configName(),
                  board.algorithm(),
                  board.size(),
                  board.window().toString(),
                  board.refresh(),
                  board.segmentBy() == null ? null : board.segmentBy().configName(),
                  held == null ? null : held.version(),
                  held == null ? null : held.computedAt().toString());
            })
        .toList();
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "200",
      description =
          "The page: {board, version, computedAt, total, items[], nextCursor} (docs/api.md)",
      content =
          @io.swagger.v3.oas.annotations.media.Content(
              mediaType = "application/json",
              schema =
                  @io.swagger.v3.oas.annotations.media.Schema(implementation = BoardPage.class)))
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "304",
      description = "Not modified since the If-None-Match ETag")
  @GetMapping("/api/v1/boards/{name}")
  ResponseEntity<byte[]> read(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable Integer offset,
      @RequestParam(required = false) @Nullable String cursor,
      @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false)
          @Nullable String ifNoneMatch) {
    BoardDefinition board = registry.require(name);
    if (board.segmented()) {
      throw new SegmentRequiredException(board);
    }
    return serve(board, null, limit, offset, cursor, ifNoneMatch);
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "200",
      description =
          "The page of one segment board: {board, segment, version, computedAt, total, items[],"
              + " nextCursor}; version 0 with no items for a segment with no item yet",
      content =
          @io.swagger.v3.oas.annotations.media.Content(
              mediaType = "application/json",
              schema =
                  @io.swagger.v3.oas.annotations.media.Schema(implementation = BoardPage.class)))
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "304",
      description = "Not modified since the If-None-Match ETag")
  @GetMapping("/api/v1/boards/{name}/segments/{segment}")
  ResponseEntity<byte[]> readSegment(
      @PathVariable String name,
      @PathVariable String segment,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable Integer offset,
      @RequestParam(required = false) @Nullable String cursor,
      @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false)
          @Nullable String ifNoneMatch) {
    return serve(registry.require(name), segment, limit, offset, cursor, ifNoneMatch);
  }

  @io.swagger.v3.oas.annotations.Operation(
      summary =
          "A board's (or one segment board's) top entries as a feed: feed.atom (Atom 1.0, RFC"
              + " 4287) or feed.json (JSON Feed 1.1)")
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "200",
      description = "The feed",
      content = {
        @io.swagger.v3.oas.annotations.media.Content(mediaType = ATOM),
        @io.swagger.v3.oas.annotations.media.Content(mediaType = JSON_FEED)
      })
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "304",
      description = "Not modified since the If-None-Match ETag")
  @GetMapping(
      value = {
        "/api/v1/boards/{name}/feed.{format}",
        "/api/v1/boards/{name}/segments/{segment}/feed.{format}"
      },
      produces = {ATOM, JSON_FEED})
  ResponseEntity<byte[]> feed(
      @PathVariable String name,
      @PathVariable(required = false) @Nullable String segment,
      @io.swagger.v3.oas.annotations.Parameter(
              schema =
                  @io.swagger.v3.oas.annotations.media.Schema(allowableValues = {"atom", "json"}))
          @PathVariable
          String format,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false)
          @Nullable String ifNoneMatch) {
    BoardDefinition board = registry.require(name);
    if (segment == null && board.segmented()) {
      throw new SegmentRequiredException(board);
    }
    return feed(board, segment, Feed.of(format), limit, ifNoneMatch);
  }

  /**
   * The segments of a segmented board with at least one entry, most entries first, then by name:
   * {@code {board, segmentBy, segments: [{segment, items, version}], nextCursor}}.
   */
  /** A family's segment boards with entries, most first. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "SegmentListing")
  record SegmentListing(
      String board, String segmentBy, List<Segment> segments, @Nullable String nextCursor) {

    /** One segment board: its segment, entries and version. */
    @io.swagger.v3.oas.annotations.media.Schema(name = "SegmentListed")
    record Segment(String segment, int items, long version) {}
  }

  @GetMapping("/api/v1/boards/{name}/segments")
  SegmentListing segments(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable String cursor) {
    BoardDefinition board = registry.require(name);
    if (board.segmentBy() == null) {
      throw new InvalidRequestException("name", "board '" + name + "' is not segmented");
    }
    int size = limit == null ? DEFAULT_SEGMENTS : limit;
    if (size < 1 || size > MAX_SEGMENTS) {
      throw new InvalidRequestException(
          "limit", "must be between 1 and " + MAX_SEGMENTS + ", was " + size);
    }
    String kind = "segments:" + name;
    Integer afterEntries = null;
    String afterKey = null;
    if (cursor != null && !cursor.isEmpty()) {
      List<String> fields = cursors.decode(kind, cursor, 2);
      afterEntries = (int) Cursors.longField(fields, 0);
      afterKey = BoardSnapshot.key(name, fields.get(1));
    }
    List<BoardSnapshotStore.SegmentRow> rows =
        sources.segments(name, afterEntries, afterKey, size + 1);
    boolean more = rows.size() > size;
    List<BoardSnapshotStore.SegmentRow> shown = more ? rows.subList(0, size) : rows;
    BoardSnapshotStore.SegmentRow last = more ? shown.getLast() : null;
    return new SegmentListing(
        name,
        board.segmentBy().configName(),
        shown.stream()
            .map(row -> new SegmentListing.Segment(row.segment(), row.entries(), row.version()))
            .toList(),
        last == null
            ? null
            : cursors.encode(kind, List.of(Integer.toString(last.entries()), last.segment())));
  }

  static final String ATOM = "application/atom+xml";
  static final String JSON_FEED = "application/feed+json";

  /** The feed formats: their media type and the suffix that tells their entity tags apart. */
  private enum Feed {
    ATOM(BoardController.ATOM, "atom"),
    JSON(BoardController.JSON_FEED, "json");

    final String mediaType;
    final String suffix;

    Feed(String mediaType, String suffix) {
      this.mediaType = mediaType;
      this.suffix = suffix;
    }

    /** The format a path names; an unknown one is a path that does not exist. */
    static Feed of(String suffix) {
      for (Feed feed : values()) {
        if (feed.suffix.equals(suffix)) {
          return feed;
        }
      }
      throw new org.springframework.web.server.ResponseStatusException(
          HttpStatus.NOT_FOUND, "no feed format '" + suffix + "'; expected atom or json");
    }
  }

  /** A board's feed, cached and revalidated as its read is, under an entity tag of its own. */
  private ResponseEntity<byte[]> feed(
      BoardDefinition board,
      @Nullable String segment,
      Feed format,
      @Nullable Integer limit,
      @Nullable String ifNoneMatch) {
    BoardHttp.Window window = http.window(board, limit, null);
    if (window == null) {
      http.refuse(board, limit, null);
    }
    BoardReader.Served served = reader.read(board.name(), segment);
    BoardSnapshot snapshot = served.snapshot();
    String inner = snapshot.etag().substring(1, snapshot.etag().length() - 1);
    String etag = "\"" + inner + "-" + format.suffix + "\"";
    HttpHeaders headers = new HttpHeaders();
    headers.set(HttpHeaders.ETAG, etag);
    headers.set(HttpHeaders.CACHE_CONTROL, http.cacheControl(board.name()));
    headers.set(HttpHeaders.AGE, http.age(snapshot));
    if (BoardHttp.notModified(ifNoneMatch, etag)) {
      return new ResponseEntity<>(headers, HttpStatus.NOT_MODIFIED);
    }
    headers.setContentType(MediaType.parseMediaType(format.mediaType + ";charset=UTF-8"));
    String self =
        org.springframework.web.servlet.support.ServletUriComponentsBuilder.fromCurrentRequest()
            .toUriString();
    byte[] body =
        format == Feed.ATOM
            ? BoardFeeds.atom(board, snapshot, window.offset(), window.limit(), self)
            : BoardFeeds.json(board, snapshot, window.offset(), window.limit(), self);
    return new ResponseEntity<>(body, headers, HttpStatus.OK);
  }

  private ResponseEntity<byte[]> serve(
      BoardDefinition board,
      @Nullable String segment,
      @Nullable Integer limit,
      @Nullable Integer offset,
      @Nullable String cursor,
      @Nullable String ifNoneMatch) {
    if (cursor != null) {
      if (offset != null) {
        throw new InvalidRequestException("offset", "cannot be combined with cursor");
      }
      return ResponseEntity.ok()
          .contentType(MediaType.APPLICATION_JSON)
          .header(HttpHeaders.CACHE_CONTROL, "no-store")
          .body(hotPages.page(board, segment, limit, cursor));
    }
    BoardHttp.Window window = http.window(board, limit, offset);
    if (window == null) {
      http.refuse(board, limit, offset);
    }
    BoardReader.Served served = reader.read(board.name(), segment);
    BoardSnapshot snapshot = served.snapshot();
    HttpHeaders headers = new HttpHeaders();
    headers.set(HttpHeaders.ETAG, snapshot.etag());
    headers.set(HttpHeaders.CACHE_CONTROL, http.cacheControl(board.name()));
    headers.set(BoardHttp.SOURCE_HEADER, served.source().header());
    headers.set(BoardHttp.ORIGIN_HEADER, snapshot.origin());
    headers.set(HttpHeaders.AGE, http.age(snapshot));
    if (BoardHttp.notModified(ifNoneMatch, snapshot.etag())) {
      return new ResponseEntity<>(headers, HttpStatus.NOT_MODIFIED);
    }
    headers.setContentType(MediaType.APPLICATION_JSON);
    return new ResponseEntity<>(
        snapshot.body(window.offset(), window.limit()), headers, HttpStatus.OK);
  }
}
