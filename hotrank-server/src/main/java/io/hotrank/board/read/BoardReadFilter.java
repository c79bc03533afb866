package io.hotrank.board.read;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * The hot path of {@code GET /api/v1/boards/{name}}: when the board is configured, the parameters
 * are valid and the local snapshot is present, answer straight from the servlet filter, copying
 * pre-rendered bytes. Everything else (bad parameters, unknown boards, local misses, fallbacks,
 * errors) continues to {@link BoardController}, which answers alike through {@link BoardHttp}.
 *
 * <p>Why a filter: Spring MVC's dispatch (handler lookup, argument resolution, message conversion,
 * response wrapping) costs more than the whole job here, which is a map lookup and one write;
 * measured with wrk in BENCHMARKS.md. {@code hotrank.board.fast-path=false} turns it off.
 */
final class BoardReadFilter implements Filter {

  static final String PREFIX = "/api/v1/boards/";

  private final BoardRegistry registry;
  private final BoardReader reader;
  private final BoardHttp http;

  BoardReadFilter(BoardRegistry registry, BoardReader reader, BoardHttp http) {
    this.registry = registry;
    this.reader = reader;
    this.http = http;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    HttpServletResponse response = (HttpServletResponse) res;
    if (!serve(request, response)) {
      chain.doFilter(req, res);
    }
  }

  /** Answers a clean local hit; returns false to let the controller handle the request. */
  private boolean serve(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!"GET".equals(request.getMethod())) {
      return false;
    }
    String uri = request.getRequestURI();
    if (!uri.startsWith(PREFIX) || uri.indexOf('/', PREFIX.length()) >= 0) {
      return false;
    }
    String name = uri.substring(PREFIX.length());
    BoardDefinition board = registry.find(name).orElse(null);
    if (board == null) {
      return false;
    }
    Integer limit;
    Integer offset;
    if (request.getQueryString() == null) {
      limit = null;
      offset = null;
    } else {
      if (request.getParameter("cursor") != null) {
        return false;
      }
      try {
        limit = parameter(request, "limit");
        offset = parameter(request, "offset");
      } catch (NumberFormatException e) {
        return false;
      }
    }
    BoardHttp.Window window = http.window(board, limit, offset);
    if (window == null) {
      return false;
    }
    BoardSnapshot snapshot = reader.local(name);
    if (snapshot == null) {
      return false;
    }
    response.setHeader("ETag", snapshot.etag());
    response.setHeader("Cache-Control", http.cacheControl(name));
    response.setHeader(BoardHttp.SOURCE_HEADER, "local");
    response.setHeader(BoardHttp.ORIGIN_HEADER, snapshot.origin());
    response.setHeader("Age", http.age(snapshot));
    if (BoardHttp.notModified(request.getHeader("If-None-Match"), snapshot.etag())) {
      response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
      return true;
    }
    byte[] body = snapshot.body(window.offset(), window.limit());
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType("application/json");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
    return true;
  }

  /** Like Spring's binding of an optional Integer: absent or empty is null. */
  private static @Nullable Integer parameter(HttpServletRequest request, String name) {
    String value = request.getParameter(name);
    return value == null || value.isEmpty() ? null : Integer.valueOf(value.strip());
  }
}
