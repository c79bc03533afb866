package io.hotrank.idempotency;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The answer kept for a key: status, the headers a replay repeats, and the body (a JSON document or
 * empty; kept as UTF-8 text).
 *
 * @param fingerprint the request's fingerprint, which a repeat must match
 */
record KeptAnswer(String fingerprint, int status, Map<String, String> headers, byte[] body) {

  /** The headers a replay repeats, when the first answer had them. */
  static final java.util.List<String> KEPT_HEADERS =
      java.util.List.of("Content-Type", "Location", "ETag");

  KeptAnswer {
    headers = Map.copyOf(headers);
  }

  /** The headers as stored: one {@code Name: value} per line. */
  String headersText() {
    StringBuilder text = new StringBuilder();
    headers.forEach((name, value) -> text.append(name).append(": ").append(value).append('\n'));
    return text.toString();
  }

  static Map<String, String> parseHeaders(String text) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int colon = line.indexOf(": ");
      if (colon > 0) {
        headers.put(line.substring(0, colon), line.substring(colon + 2));
      }
    }
    return headers;
  }

  String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
