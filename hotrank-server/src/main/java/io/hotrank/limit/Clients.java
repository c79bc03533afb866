package io.hotrank.limit;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * Who a request comes from, as the rate limits count it: the value of {@code
 * hotrank.limits.client-header} when it is one of {@code hotrank.limits.api-keys}, else the remote
 * address. A key not listed (and any key while none is listed) counts as its address, so a client
 * cannot pass for another, or dodge its limit, by sending a new key with each request. Behind a
 * proxy the remote address is the one Tomcat's {@code RemoteIpValve} takes from {@code
 * X-Forwarded-For} ({@code server.forward-headers-strategy=native}). API keys are hashed, so that
 * neither Redis nor the database ever holds a client's secret. Thread-safe (immutable).
 */
@Component
public final class Clients {

  private final String header;
  private final Set<String> apiKeys;

  @org.springframework.beans.factory.annotation.Autowired
  Clients(LimitProperties properties) {
    this(properties.clientHeader().strip(), properties.apiKeys());
  }

  /**
   * @param apiKeys the keys that name a client; empty: none does, every client is its address
   */
  Clients(String header, Set<String> apiKeys) {
    this.header = header;
    this.apiKeys = Set.copyOf(apiKeys);
  }

  /** The request's client: {@code k:<hash of its API key>} or {@code a:<its address>}. */
  public String of(HttpServletRequest request) {
    String key = header.isEmpty() ? null : request.getHeader(header);
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
}
