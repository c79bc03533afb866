package io.hotrank.limit;

import io.hotrank.limit.GcraLimiter.Decision;
import io.hotrank.limit.GcraLimiter.Policy;
import io.hotrank.limit.RateLimits.Verdict;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import io.hotrank.web.ProblemRenderer;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Set;

/**
 * Limits every request under {@code /api/v1/} by its route group's policy, before anything else
 * runs (the board fast path included). Each limited response carries the IETF draft headers {@code
 * RateLimit-Policy: "reads";q=100;w=1} and {@code RateLimit: "reads";r=99;t=1}; a request over the
 * limit gets a 429 problem with {@code Retry-After}, and one refused because Redis is down and the
 * instance fails closed a 503 with {@code Retry-After}.
 *
 * <p>The client is the value of the configured header when it is one of {@code
 * hotrank.limits.api-keys}, else the remote address: a key not listed (and any key while none is
 * listed) counts as its address, so a client cannot dodge its limit by sending a new key with each
 * request. Behind a proxy the remote address is the one Tomcat's {@code RemoteIpValve} takes from
 * {@code X-Forwarded-For} ({@code server.forward-headers-strategy=native}). API keys are hashed
 * before they name a Redis key, so Redis never holds a client's secret.
 */
final class RateLimitFilter implements Filter {

  /** Over a rate limit. */
  static final ProblemType RATE_LIMITED = new ProblemType(429, "rate-limited", "Too many requests");

  private final RateLimits limits;
  private final String clientHeader;
  private final Set<String> apiKeys;

  /**
   * @param apiKeys the keys that name a client; empty: none does, every client is its address
   */
  RateLimitFilter(RateLimits limits, String clientHeader, Set<String> apiKeys) {
    this.limits = limits;
    this.clientHeader = clientHeader;
    this.apiKeys = Set.copyOf(apiKeys);
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    HttpServletResponse response = (HttpServletResponse) res;
    // The servlet path is decoded and normalized, without path parameters or the context path:
    // what the handler mapping sees, so "/api/v1/admin;x/jobs" counts as admin.
    String path =
        request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    RouteGroup group = RouteGroup.of(request.getMethod(), path);
    Verdict verdict = group == null ? null : limits.decide(group, client(request));
    if (verdict == null) {
      chain.doFilter(req, res);
      return;
    }
    Policy policy = verdict.policy();
    response.setHeader(
        "RateLimit-Policy",
        "\"" + policy.name() + "\";q=" + policy.quota() + ";w=" + policy.window().toSeconds());
    Decision decision = verdict.decision();
    if (decision != null) {
      response.setHeader(
          "RateLimit",
          "\""
              + policy.name()
              + "\";r="
              + decision.remaining()
              + ";t="
              + seconds(decision.reset()));
    }
    if (verdict.admitted()) {
      chain.doFilter(req, res);
    } else if (decision != null) {
      Problem problem =
          Problem.of(
                  RATE_LIMITED,
                  "Over the '"
                      + policy.name()
                      + "' rate limit of "
                      + policy.quota()
                      + " requests per "
                      + policy.window().toSeconds()
                      + " s for this client; retry after the time in Retry-After")
              .withHeader(
                  "Retry-After", Long.toString(Math.max(1, seconds(decision.retryAfter()))));
      ProblemRenderer.write(response, problem, request.getRequestURI());
    } else {
      ProblemRenderer.write(response, Problem.storageUnavailable(), request.getRequestURI());
    }
  }

  private String client(HttpServletRequest request) {
    String key = clientHeader.isEmpty() ? null : request.getHeader(clientHeader);
    // An unknown key is no client of its own, and without a list every key is unknown: a client
    // sending a new key each time would never be limited.
    if (key != null && apiKeys.contains(key)) {
      return "k:" + hash(key);
    }
    return "a:" + request.getRemoteAddr();
  }

  private static String hash(String key) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** Whole seconds, rounded up: a client waiting that long is admitted. */
  private static long seconds(Duration d) {
    return (d.toMillis() + 999) / 1000;
  }
}
