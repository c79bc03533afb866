package io.hotrank.console;

import io.hotrank.support.ApiTestSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.test.context.TestPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * What the console's tests share: one service with the rate limits on at their defaults (as users
 * get them), H2 under its own data directory, a viewer operator for when named operators exist, and
 * a raw HTTP client that follows no redirects, so the tests see the console's own answers.
 */
@TestPropertySource(
    properties = {
      "hotrank.data-dir=target/test-data/console",
      "hotrank.limits.enabled=true",
      "hotrank.admin.operators[0].name=viewer",
      "hotrank.admin.operators[0].token=" + ConsoleTestSupport.VIEWER_TOKEN,
      "hotrank.admin.operators[0].role=viewer"
    })
abstract class ConsoleTestSupport extends ApiTestSupport {

  static final String ADMIN_TOKEN = "test-admin-token";
  static final String VIEWER_TOKEN = "test-viewer-token-0123456789";

  static {
    // A database left by an earlier run would carry its boards' snapshots and audit entries.
    try {
      FileSystemUtils.deleteRecursively(Path.of("target/test-data/console"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private final HttpClient client =
      HttpClient.newBuilder()
          .followRedirects(HttpClient.Redirect.NEVER)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @Override
  protected String engine() {
    return "H2";
  }

  String base() {
    return "http://127.0.0.1:" + port;
  }

  HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return client.send(
          request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  HttpResponse<String> get(String path, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).GET();
    if (headers.length > 0) {
      request.headers(headers);
    }
    return send(request);
  }

  HttpResponse<String> postForm(String path, String cookie, List<String> fields) {
    String body = fields.stream().map(f -> f.replace(" ", "+")).collect(Collectors.joining("&"));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base() + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (!cookie.isEmpty()) {
      request.header("Cookie", cookie);
    }
    return send(request);
  }

  /** Signs in with {@code token} and answers the session cookie ({@code name=value}). */
  String signIn(String token) {
    HttpResponse<String> answer = postForm("/console/sign-in", "", List.of("token=" + token));
    String setCookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
    return setCookie.substring(0, setCookie.indexOf(';'));
  }

  /** The CSRF token a page carries in its forms. */
  static String csrfOf(String page) {
    int at = page.indexOf("name=\"_csrf\" value=\"");
    if (at < 0) {
      throw new IllegalStateException("no CSRF field in the page");
    }
    int from = at + "name=\"_csrf\" value=\"".length();
    return page.substring(from, page.indexOf('"', from));
  }
}
