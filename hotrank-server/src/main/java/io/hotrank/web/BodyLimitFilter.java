package io.hotrank.web;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Bounds every request body to {@code hotrank.web.max-body-size} before anything parses it. The
 * first filter of the servlet port, ahead of the rate limits: the check costs no Redis round trip,
 * and it holds for every path. A declared {@code Content-Length} over the limit answers 413 at
 * once, without reading a byte of the body; a body of unknown length (chunked) is read through a
 * stream that throws {@link BodyTooLargeException} once it passes the limit, which the problem
 * handler answers 413 whichever reader wrapped it (and this filter, for a reader outside Spring
 * MVC). Either answer closes the connection, so Tomcat does not swallow the rest of the body to
 * keep it alive. Form posts Tomcat parses itself are bounded by {@code
 * server.tomcat.max-http-form-post-size}, set to the same size in application.yml. Thread-safe.
 */
final class BodyLimitFilter implements Filter {

  private final long limit;

  BodyLimitFilter(long limit) {
    this.limit = limit;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    long declared = request.getContentLengthLong();
    if (declared > limit) {
      ProblemRenderer.write(
          (HttpServletResponse) res,
          new BodyTooLargeException(limit).problem(),
          request.getRequestURI());
      return;
    }
    try {
      chain.doFilter(declared < 0 ? new Limited(request, limit) : request, res);
    } catch (IOException | ServletException | RuntimeException e) {
      // A reader outside Spring MVC's handler (Spring's form filter for PUT, PATCH and DELETE)
      // that hit the limit: the same 413, not the container's error page.
      BodyTooLargeException tooLarge = BodyTooLargeException.in(e);
      if (tooLarge == null || res.isCommitted()) {
        throw e;
      }
      res.reset();
      ProblemRenderer.write((HttpServletResponse) res, tooLarge.problem(), request.getRequestURI());
    }
  }

  /** A request whose body of unknown length stops at the limit. */
  private static final class Limited extends HttpServletRequestWrapper {

    private final long limit;
    private @Nullable ServletInputStream stream;

    Limited(HttpServletRequest request, long limit) {
      super(request);
      this.limit = limit;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      if (stream == null) {
        stream = new LimitedStream(super.getInputStream(), limit);
      }
      return stream;
    }

    @Override
    public BufferedReader getReader() throws IOException {
      String encoding = getCharacterEncoding();
      Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
      return new BufferedReader(new InputStreamReader(getInputStream(), charset));
    }
  }

  /** Counts what is read; throws once the count passes the limit. */
  private static final class LimitedStream extends ServletInputStream {

    private final ServletInputStream in;
    private final long limit;
    private long read;

    LimitedStream(ServletInputStream in, long limit) {
      this.in = in;
      this.limit = limit;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      // Never more than one byte past the limit: enough to know it was passed.
      int n = in.read(b, off, (int) Math.min(len, Math.max(1, limit - read + 1)));
      if (n > 0) {
        count(n);
      }
      return n;
    }

    private void count(int n) {
      read += n;
      if (read > limit) {
        throw new BodyTooLargeException(limit);
      }
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }
  }
}
