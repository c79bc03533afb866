package io.hotrank.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small HTTP client for tests: real requests to a running hotrank, JSON answers. */
public final class HttpJson {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String base;
  private final String adminToken;
  private final Duration timeout;

  public HttpJson(String base, String adminToken) {
    this(base, adminToken, Duration.ofSeconds(30));
  }

  private HttpJson(String base, String adminToken, Duration timeout) {
    this.base = base;
    this.adminToken = adminToken;
    this.timeout = timeout;
  }

  /**
   * The same client with a shorter answer timeout: a request that gets no answer in time fails the
   * test with {@link java.net.http.HttpTimeoutException}.
   */
  public HttpJson withTimeout(Duration timeout) {
    return new HttpJson(base, adminToken, timeout);
  }

  /** One answer: status, headers, raw body and the body parsed as JSON (null if none). */
  public record Answer(int status, Map<String, java.util.List<String>> headers, byte[] raw) {
    public JsonNode json() {
      return raw.length == 0 ? null : JSON.readTree(raw);
    }

    public String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().getFirst())
          .findFirst()
          .orElse(null);
    }

    public String body() {
      return new String(raw, java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  public Answer get(String path, String... headers) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET(), headers);
  }

  public Answer post(String path, String body, String... headers) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)),
        headers);
  }

  public Answer put(String path, String body, String... headers) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(body)),
        headers);
  }

  public Answer delete(String path, String... headers) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE(), headers);
  }

  /** The admin's Authorization header, to pass as {@code headers}. */
  public String[] adminHeader() {
    return new String[] {"Authorization", "Bearer " + adminToken};
  }

  /** POST as the admin. */
  public Answer admin(String path) {
    return post(path, "", "Authorization", "Bearer " + adminToken);
  }

  /** Serializes a value to JSON for a request body. */
  public static String json(Object value) {
    return JSON.writeValueAsString(value);
  }

  private Answer send(HttpRequest.Builder request, String... headers) {
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    try {
      HttpResponse<byte[]> response =
          CLIENT.send(request.timeout(timeout).build(), HttpResponse.BodyHandlers.ofByteArray());
      return new Answer(response.statusCode(), response.headers().map(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
