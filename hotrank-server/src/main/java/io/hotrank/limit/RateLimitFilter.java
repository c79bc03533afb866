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
import java.time.Duration;

/**
 * Limits every request under {@code /api/v1/} by its route group's policy, before anything else
 * runs (the board fast path included). Each limited response carries the IETF draft headers {@code
 * RateLimit-Policy: "reads";q=100;w=1} and {@code RateLimit: "reads";r=99;t=1}; a request over the
 * limit gets a 429 problem with {@code Retry-After}, and one refused because Redis is down and the
 * instance fails closed a 503 with {@code Retry-After}.
 *
 * <p>The client is as {@link Clients} tells it: an API key of {@code hotrank.limits.api-keys}, else
 * the remote address.
 */
final class RateLimitFilter implements Filter {

  /** Over a rate limit. */
  static final ProblemType RATE_LIMITED = new ProblemType(429, "rate-limited", "Too many requests");

  private final RateLimits limits;
  private final Clients clients;

  RateLimitFilter(RateLimits limits, Clients clients) {
    this.limits = limits;
    this.clients = clients;
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
    Verdict verdict = group == null ? null : limits.decide(group, clients.of(request));
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

  /** Whole seconds, rounded up: a client waiting that long is admitted. */
  private static long seconds(Duration d) {
    return (d.toMillis() + 999) / 1000;
  }
}
