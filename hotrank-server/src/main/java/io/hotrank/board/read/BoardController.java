package io.hotrank.board.read;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.publish.LocalBoards;
import io.hotrank.problem.InvalidRequestException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  BoardController(
      BoardRegistry registry,
      BoardReader reader,
      LocalBoards local,
      BoardHttp http,
      HotPages hotPages) {
    this.hotPages = hotPages;
    this.registry = registry;
    this.reader = reader;
    this.local = local;
    this.http = http;
  }

  @GetMapping("/api/v1/boards")
  List<Map<String, Object>> list() {
    return registry.all().stream()
        .map(
            board -> {
              Map<String, Object> view = new LinkedHashMap<>();
              view.put("name", board.name());
              view.put("biz", board.biz());
              view.put("type", board.kind().configName());
              view.put("algorithm", board.algorithm());
              view.put("size", board.size());
              view.put("window", board.window().toString());
              view.put("refresh", board.refresh());
              BoardSnapshot held = local.get(board.name());
              view.put("version", held == null ? null : held.version());
              view.put("computedAt", held == null ? null : held.computedAt().toString());
              return view;
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
              schema = @io.swagger.v3.oas.annotations.media.Schema(type = "object")))
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
    if (cursor != null) {
      if (offset != null) {
        throw new InvalidRequestException("offset", "cannot be combined with cursor");
      }
      return ResponseEntity.ok()
          .contentType(MediaType.APPLICATION_JSON)
          .header(HttpHeaders.CACHE_CONTROL, "no-store")
          .body(hotPages.page(board, limit, cursor));
    }
    BoardHttp.Window window = http.window(board, limit, offset);
    if (window == null) {
      http.refuse(board, limit, offset);
    }
    BoardReader.Served served = reader.read(name);
    BoardSnapshot snapshot = served.snapshot();
    HttpHeaders headers = new HttpHeaders();
    headers.set(HttpHeaders.ETAG, snapshot.etag());
    headers.set(HttpHeaders.CACHE_CONTROL, http.cacheControl(name));
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
