package io.hotrank.support;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The fingerprint {@code hr_idempotency} keeps of a keyed JSON request, computed independently of
 * the filter: the SHA-256 of the request line ({@code POST /api/v1/items}) and the body, joined by
 * a newline, in hex. Tests find a key's row by it.
 */
public final class RequestFingerprint {

  private RequestFingerprint() {}

  public static String of(String requestLine, String body) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest((requestLine + "\n" + body).getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
