package io.hotrank.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.event.EventValidator;
import io.hotrank.item.ItemService;
import io.hotrank.support.HttpJson;
import io.hotrank.support.RawHttp;
import io.hotrank.support.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The request body limit, {@code hotrank.web.max-body-size} at its 1MB default: a larger declared
 * body is refused with 413 before a byte of it is read, a chunked one once it passes the limit, and
 * either way the connection is closed rather than drained; the largest legal event batch fits.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(properties = "hotrank.data-dir=" + TestData.DIR + "body-limit")
class BodyLimitTest {

  static {
    TestData.empty("body-limit");
  }

  private static final long LIMIT = 1024 * 1024;

  @LocalServerPort int port;

  private void assertBodyTooLarge(RawHttp.Answer answer, String path) {
    assertThat(answer.status()).isEqualTo(413);
    assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
    assertThat(answer.header("Connection")).isEqualToIgnoringCase("close");
    assertThat(answer.json().get("type").asString())
        .isEqualTo("https://hotrank.io/problems/body-too-large");
    assertThat(answer.json().get("status").asInt()).isEqualTo(413);
    assertThat(answer.json().get("instance").asString()).isEqualTo(path);
    assertThat(answer.json().get("detail").asString())
        .contains(Long.toString(LIMIT), "hotrank.web.max-body-size");
  }

  @Test
  @Timeout(120) // a guard, should Tomcat stop reading without closing: the writes would block
  void aDeclared25MbBody_isRefusedBeforeItIsSent_andTheConnectionClosed() throws IOException {
    long declared = 25L * 1024 * 1024;
    try (RawHttp http = new RawHttp(port)) {
      http.send(
          ("POST /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  + "Content-Length: "
                  + declared
                  + "\r\n\r\n{\"events\":[")
              .getBytes(StandardCharsets.US_ASCII));
      // Only the head and 11 bytes were sent: the answer comes without the rest of the body.
      assertBodyTooLarge(http.answer(), "/api/v1/events");
      // Tomcat drains at most server.tomcat.max-swallow-size (2MB) of the rest, then closes: the
      // client cannot send the 25 MB.
      byte[] filler = new byte[64 * 1024];
      long sent = 11;
      try {
        while (sent < declared) {
          http.send(filler);
          sent += filler.length;
        }
      } catch (IOException closed) {
        // expected
      }
      assertThat(sent).as("bytes sent before the server closed").isLessThan(declared);
    }
  }

  @Test
  void aChunked2MbBody_isCutOffWith413() throws Exception {
    assertChunked2MbCutOff("POST /api/v1/events", "application/json", "{\"events\":[{\"biz\":\"");
  }

  /** Read by Spring's form filter, outside the handler: the same 413, not the error page's 500. */
  @Test
  void aChunked2MbFormPut_isCutOffWith413() throws Exception {
    assertChunked2MbCutOff(
        "PUT /api/v1/items/news/1", "application/x-www-form-urlencoded", "title=");
  }

  private void assertChunked2MbCutOff(String requestLine, String contentType, String start)
      throws Exception {
    String path = requestLine.substring(requestLine.indexOf(' ') + 1);
    try (RawHttp http = new RawHttp(port)) {
      http.send(
          (requestLine
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                  + contentType
                  + "\r\nTransfer-Encoding: chunked\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      // A valid start, then a value that never ends: 2 MB in chunks of 64 KB, sent while the
      // answer is read (the server may stop reading, and the rest then cannot be sent).
      CompletableFuture<Void> sending =
          CompletableFuture.runAsync(
              () -> {
                try {
                  http.send(chunk(start.getBytes(StandardCharsets.US_ASCII)));
                  byte[] filler = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
                  for (int i = 0; i < 32; i++) {
                    http.send(chunk(filler));
                  }
                  http.send("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException stoppedReading) {
                  // expected once the server has answered and closed
                }
              });
      assertBodyTooLarge(http.answer(), path);
      sending.get();
    }
  }

  private static byte[] chunk(byte[] data) {
    byte[] head = (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[head.length + data.length + 2];
    System.arraycopy(head, 0, out, 0, head.length);
    System.arraycopy(data, 0, out, head.length, data.length);
    out[out.length - 2] = '\r';
    out[out.length - 1] = '\n';
    return out;
  }

  @Test
  void theLargestLegalEventBatch_prettyPrinted_isUnderTheLimit_andAccepted() {
    // The longest legal value of every field: a 32-character biz, the largest item id (2^53-1)
    // and user id, the longest type name and an ISO instant with nanoseconds.
    String biz = "b" + "-".repeat(31);
    String at = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusNanos(1).toString();
    List<Map<String, Object>> events = new ArrayList<>();
    for (int i = 0; i < EventValidator.MAX_EVENTS; i++) {
      Map<String, Object> event = new LinkedHashMap<>();
      event.put("biz", biz);
      event.put("itemId", ItemService.MAX_ID);
      event.put("type", "uncollect");
      event.put("userId", Long.MAX_VALUE);
      event.put("at", at);
      events.add(event);
    }
    String body =
        JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build()
            .writeValueAsString(Map.of("events", events));
    assertThat(body).contains("\n    ").contains(at);
    assertThat(body.getBytes(StandardCharsets.UTF_8).length).isLessThan((int) LIMIT);

    HttpJson http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    HttpJson.Answer biz32 =
        http.post("/api/v1/admin/bizes", HttpJson.json(Map.of("name", biz)), http.adminHeader());
    assertThat(biz32.status()).as(biz32.body()).isIn(200, 201);
    HttpJson.Answer created =
        http.post(
            "/api/v1/items",
            HttpJson.json(
                Map.of(
                    "biz",
                    biz,
                    "id",
                    ItemService.MAX_ID,
                    "authorId",
                    1,
                    "title",
                    "t",
                    "tags",
                    List.of())));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    HttpJson.Answer accepted = http.post("/api/v1/events", body);
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(202);
  }
}
