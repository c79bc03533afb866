package io.hotrank.idempotency;

import io.hotrank.limit.Clients;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import io.hotrank.web.ProblemRenderer;
import io.micrometer.core.instrument.MeterRegistry;
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
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Runs a write that carries {@code Idempotency-Key} at most once per key and client, as the IETF
 * draft (draft-ietf-httpapi-idempotency-key-header) has it, for every write under {@code /api/v1/}.
 *
 * <ol>
 *   <li>The key (1 to 255 printable ASCII characters, sent once) and the client ({@link Clients})
 *       name a row of {@code hr_idempotency}; the request's method, path with query and body make
 *       its fingerprint.
 *   <li>The request claims the row (an INSERT that one request wins) and runs. A {@code 2xx} answer
 *       is kept: recorded by the write in its own transaction where it can ({@link
 *       IdempotentAnswers}), else here once rendered. A refusal ({@code 4xx}) frees the key, as
 *       does a failure ({@code 5xx}) of a write that says nothing of it can have been written
 *       ({@link IdempotencyClaim#nothingApplied}, {@link IdempotencyClaim#decidedByTransaction}): a
 *       retry runs again. After any other failure the key stays claimed until its lease ends (a
 *       retry meanwhile is 409), since the write may have happened.
 *   <li>A request that finds the row done gets the kept answer, with {@code Idempotent-Replayed:
 *       true}, if its fingerprint is the same, else 422 {@code idempotency-key-reused}; one that
 *       finds it claimed gets 409 {@code idempotency-key-in-flight} with {@code Retry-After}. A
 *       claim whose lease ended (its instance died mid-request) or an answer past the retention is
 *       taken over.
 * </ol>
 *
 * <p>Requests without the header pass untouched. A database that fails answers 503 with {@code
 * Retry-After} before anything runs.
 */
final class IdempotencyFilter implements Filter {

  private static final Logger log = LoggerFactory.getLogger(IdempotencyFilter.class);

  static final String HEADER = "Idempotency-Key";
  static final String REPLAYED = "Idempotent-Replayed";

  static final ProblemType REUSED =
      new ProblemType(422, "idempotency-key-reused", "Idempotency key reused");
  static final ProblemType IN_FLIGHT =
      new ProblemType(409, "idempotency-key-in-flight", "Idempotency key in flight");

  private static final String FORM = "application/x-www-form-urlencoded";

  private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
  private static final int MAX_KEY = 255;
  private static final int ATTEMPTS = 3;

  private final IdempotencyStore store;
  private final AnswerCache cache;
  private final Clients clients;
  private final Clock clock;
  private final Duration retention;
  private final Duration lease;
  private final MeterRegistry meters;

  IdempotencyFilter(
      IdempotencyStore store,
      AnswerCache cache,
      Clients clients,
      Clock clock,
      IdempotencyProperties properties,
      MeterRegistry meters) {
    this.store = store;
    this.cache = cache;
    this.clients = clients;
    this.clock = clock;
    this.retention = properties.retention();
    this.lease = properties.lease();
    this.meters = meters;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    HttpServletResponse response = (HttpServletResponse) res;
    List<String> keys =
        SAFE.contains(request.getMethod())
            ? List.of()
            : Collections.list(request.getHeaders(HEADER));
    if (keys.isEmpty()) {
      chain.doFilter(req, res);
      return;
    }
    String invalid = keys.size() > 1 ? "must be sent once" : invalid(keys.getFirst());
    if (invalid != null) {
      ProblemRenderer.write(response, Problem.invalid(HEADER, invalid), request.getRequestURI());
      return;
    }
    byte[] body;
    HttpServletRequest replayable;
    String type = request.getContentType();
    if (type != null && type.toLowerCase(Locale.ROOT).startsWith(FORM)) {
      // The container reads a form's body into the parameters: read them, not the stream, so
      // that the handler still finds them.
      StringBuilder form = new StringBuilder();
      new TreeMap<>(request.getParameterMap())
          .forEach((k, v) -> form.append(k).append('=').append(String.join(",", v)).append('&'));
      body = form.toString().getBytes(StandardCharsets.UTF_8);
      replayable = request;
    } else {
      body = request.getInputStream().readAllBytes();
      replayable = new BodyRequest(request, body);
    }
    String fingerprint = fingerprint(request, body);
    String id = sha256(clients.of(request) + "\n" + keys.getFirst());
    String token = UUID.randomUUID().toString();
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Decision decision;
      try {
        decision = decide(id, fingerprint, token);
      } catch (DataAccessException e) {
        log.warn("Idempotency keys cannot be read or claimed: {}", e.toString());
        ProblemRenderer.write(response, Problem.storageUnavailable(), request.getRequestURI());
        return;
      }
      switch (decision) {
        case Decision.Run run -> {
          run(id, token, fingerprint, replayable, response, chain);
          return;
        }
        case Decision.Replay replay -> {
          answer(request, response, fingerprint, replay.answer());
          return;
        }
        case Decision.InFlight inFlight -> {
          if (!inFlight.fingerprint().equals(fingerprint)) {
            reused(request, response);
          } else {
            count("in-flight");
            ProblemRenderer.write(
                response,
                Problem.of(
                        IN_FLIGHT,
                        "A request with this Idempotency-Key is still running; retry after the"
                            + " time in Retry-After")
                    .withRetryAfter(Duration.ofSeconds(1)),
                request.getRequestURI());
          }
          return;
        }
        case Decision.Again again -> {
          // The row went (released or pruned) between the claim and the read: claim again.
        }
      }
    }
    count("in-flight");
    ProblemRenderer.write(
        response,
        Problem.of(IN_FLIGHT, "Requests with this Idempotency-Key keep racing; retry")
            .withRetryAfter(Duration.ofSeconds(1)),
        request.getRequestURI());
  }

  /** What a request with a key does. */
  private sealed interface Decision {
    record Run() implements Decision {}

    record Replay(KeptAnswer answer) implements Decision {}

    record InFlight(String fingerprint) implements Decision {}

    record Again() implements Decision {}
  }

  private Decision decide(String id, String fingerprint, String token) {
    long now = clock.millis();
    if (store.claim(id, fingerprint, token, now, now + lease.toMillis())) {
      return new Decision.Run();
    }
    Optional<KeptAnswer> cached = cache.get(id);
    if (cached.isPresent()) {
      return new Decision.Replay(cached.get());
    }
    Optional<IdempotencyStore.Row> found = store.find(id);
    if (found.isEmpty()) {
      return new Decision.Again();
    }
    IdempotencyStore.Row row = found.get();
    long keptSince = now - retention.toMillis();
    if (row.answer() != null && row.createdAt() >= keptSince) {
      cache.put(id, row.answer(), Duration.ofMillis(row.createdAt() - keptSince));
      return new Decision.Replay(row.answer());
    }
    if (row.answer() == null && row.leaseUntil() >= now) {
      return new Decision.InFlight(row.fingerprint());
    }
    return store.takeOver(id, fingerprint, token, now, now + lease.toMillis(), keptSince)
        ? new Decision.Run()
        : new Decision.Again();
  }

  private void run(
      String id,
      String token,
      String fingerprint,
      HttpServletRequest request,
      HttpServletResponse response,
      FilterChain chain)
      throws IOException, ServletException {
    IdempotencyClaim claim = new IdempotencyClaim(id, token);
    claim.attachTo(request);
    ContentCachingResponseWrapper captured = new ContentCachingResponseWrapper(response);
    boolean free = false;
    try {
      chain.doFilter(request, captured);
      int status = captured.getStatus();
      if (status >= 200 && status < 300) {
        if (!claim.recorded()) {
          record(id, token, fingerprint, captured);
        }
      } else {
        // A refusal (4xx) changed nothing; a failure (5xx) may have written before it failed,
        // unless the write says it cannot have.
        free = status < 500 || claim.freeOnFailure();
      }
    } catch (IOException | ServletException | RuntimeException e) {
      free = claim.freeOnFailure();
      throw e;
    } finally {
      if (free) {
        try {
          store.release(id, token);
        } catch (DataAccessException e) {
          // The key stays claimed until its lease ends; a retry is answered 409 until then.
          log.warn("Freeing an idempotency key failed: {}", e.toString());
        }
      }
      captured.copyBodyToResponse();
    }
  }

  private void record(
      String id, String token, String fingerprint, ContentCachingResponseWrapper captured) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String name : KeptAnswer.KEPT_HEADERS) {
      String value = name.equals("Content-Type") ? captured.getContentType() : null;
      value = value != null ? value : captured.getHeader(name);
      if (value != null) {
        headers.put(name, value);
      }
    }
    KeptAnswer answer =
        new KeptAnswer(
            fingerprint, captured.getStatus(), headers, captured.getContentAsByteArray());
    try {
      if (!store.complete(id, token, answer)) {
        log.warn("An idempotency key outlived its lease while its request ran; not kept");
      }
    } catch (DataAccessException e) {
      // The write happened: its answer stands. A retry is answered 409 until the lease ends,
      // then runs again.
      log.warn("Keeping the answer of an idempotency key failed: {}", e.toString());
    }
  }

  private void answer(
      HttpServletRequest request,
      HttpServletResponse response,
      String fingerprint,
      KeptAnswer answer)
      throws IOException {
    if (!answer.fingerprint().equals(fingerprint)) {
      reused(request, response);
      return;
    }
    count("replayed");
    response.setStatus(answer.status());
    answer.headers().forEach(response::setHeader);
    response.setHeader(REPLAYED, "true");
    response.setContentLength(answer.body().length);
    response.getOutputStream().write(answer.body());
  }

  private void reused(HttpServletRequest request, HttpServletResponse response) throws IOException {
    count("reused");
    ProblemRenderer.write(
        response,
        Problem.of(
            REUSED,
            "This Idempotency-Key was used with a different request (method, path or body);"
                + " send a new key for a new request"),
        request.getRequestURI());
  }

  private void count(String outcome) {
    meters.counter("hotrank.idempotency.requests", "outcome", outcome).increment();
  }

  /** Why the key is not valid, or null. */
  private static String invalid(String key) {
    if (key.isEmpty() || key.length() > MAX_KEY) {
      return "must be 1 to " + MAX_KEY + " characters, was " + key.length();
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return "must be printable ASCII characters, has one at " + i;
      }
    }
    return null;
  }

  private static String fingerprint(HttpServletRequest request, byte[] body) {
    MessageDigest digest = sha256();
    String query = request.getQueryString();
    String line =
        request.getMethod()
            + " "
            + request.getRequestURI()
            + (query == null ? "" : "?" + query)
            + "\n";
    digest.update(line.getBytes(StandardCharsets.UTF_8));
    digest.update(body);
    return HexFormat.of().formatHex(digest.digest());
  }

  private static String sha256(String text) {
    return HexFormat.of().formatHex(sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** The request with its body read once and served again to whatever reads it next. */
  private static final class BodyRequest extends HttpServletRequestWrapper {

    private final byte[] body;

    BodyRequest(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      ByteArrayInputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
          return in.read(b, off, len);
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new UnsupportedOperationException("the body is already read");
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      String encoding = getCharacterEncoding();
      return new BufferedReader(
          new InputStreamReader(
              getInputStream(),
              encoding == null
                  ? StandardCharsets.UTF_8
                  : java.nio.charset.Charset.forName(encoding)));
    }
  }
}
