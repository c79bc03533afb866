package io.hotrank.web;

import io.hotrank.problem.Problem;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requires an ingest key ({@code hotrank.access.ingest-keys}) on every write under {@code /api/v1/}
 * that is not an admin call (those have {@link AdminGuardFilter}): any method but {@code GET},
 * {@code HEAD} and {@code OPTIONS} (which changes nothing, and which a browser's CORS preflight
 * sends without credentials); and on reads of {@code /api/v1/actors/}, what the platform says of
 * its users. Registered only when keys are configured. No key may be an operator's token (checked
 * at start). After the rate limits, so that a client hammering with a wrong key is limited like any
 * other, and before the board fast path, which serves reads only. The keys are kept as SHA-256
 * digests and a presented one is compared with every digest in constant time, as operators' tokens
 * are; a refusal is 401 and a DEBUG line without the key. The Netty read port serves board reads
 * only and is not behind this filter. Thread-safe (immutable).
 */
final class IngestKeyFilter implements Filter {

  private static final Logger log = LoggerFactory.getLogger(IngestKeyFilter.class);

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  /** Where reads need a key too: what the platform says of its users is not the public's. */
  private static final String ACTORS = "/api/v1/actors";

  private final List<byte[]> digests;

  private IngestKeyFilter(List<byte[]> digests) {
    this.digests = List.copyOf(digests);
  }

  /**
   * The filter for the configured keys; with none, a filter that {@linkplain #required() requires}
   * nothing and is not registered (writes stay open).
   *
   * @param operators the operators, whose tokens no key may repeat: a key is handed to clients, and
   *     one that is also an operator's token would give them the admin API
   * @throws IllegalStateException naming the property when a key has no name or token, repeats one,
   *     or is an operator's token (naming the operator, never the token)
   */
  static IngestKeyFilter of(@Nullable List<AccessProperties.IngestKey> keys, Operators operators) {
    if (keys == null || keys.isEmpty()) {
      log.info("Writes and actor reads under /api/v1/ are open (no hotrank.access.ingest-keys)");
      return new IngestKeyFilter(List.of());
    }
    List<byte[]> digests = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < keys.size(); i++) {
      AccessProperties.IngestKey key = keys.get(i);
      String prefix = "hotrank.access.ingest-keys[" + i + "]";
      String name = key.name() == null ? "" : key.name().strip();
      if (!NAME.matcher(name).matches()) {
        throw new IllegalStateException(
            prefix + ".name must match [A-Za-z0-9_.-]{1,64}, was '" + name + "'");
      }
      if (!names.add(name)) {
        throw new IllegalStateException(prefix + ".name '" + name + "' is taken by an earlier key");
      }
      if (key.token() == null || key.token().isBlank()) {
        throw new IllegalStateException(prefix + ".token is required");
      }
      byte[] digest = Operators.sha256(key.token().strip());
      Optional<Operator> operator = operators.withDigest(digest);
      if (operator.isPresent()) {
        throw new IllegalStateException(
            prefix
                + ".token is the token of operator '"
                + operator.get().name()
                + "'; an ingest key must differ from every operator's token");
      }
      for (byte[] other : digests) {
        if (MessageDigest.isEqual(other, digest)) {
          throw new IllegalStateException(
              prefix + ".token repeats an earlier key's token; every client needs its own");
        }
      }
      digests.add(digest);
    }
    log.info("Writes and actor reads under /api/v1/ need one of {} ingest keys", digests.size());
    return new IngestKeyFilter(digests);
  }

  /** Whether any key is configured, so that writes need one. */
  boolean required() {
    return !digests.isEmpty();
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    String path = AdminGuardFilter.path(request);
    if ((AdminRoleInterceptor.isRead(request) && !AdminGuardFilter.under(path, ACTORS))
        || "OPTIONS".equals(request.getMethod())
        || !path.startsWith("/api/v1/")
        || AdminGuardFilter.under(path, AdminGuardFilter.ADMIN_API)
        || matches(request.getHeader("Authorization"))) {
      chain.doFilter(req, res);
      return;
    }
    log.debug("Refused {} {}: no ingest key", request.getMethod(), request.getRequestURI());
    Problem problem =
        new UnauthorizedException(
                "Writes (and reads of actors) need 'Authorization: Bearer <ingest key>'")
            .problem();
    ProblemRenderer.write((HttpServletResponse) res, problem, request.getRequestURI());
  }

  private boolean matches(@Nullable String header) {
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] presented = Operators.sha256(header.substring(7).strip());
    boolean matched = false;
    for (byte[] digest : digests) {
      matched |= MessageDigest.isEqual(presented, digest);
    }
    return matched;
  }
}
