package io.hotrank.web;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * A Redis at its maxmemory (the embedded one evicts nothing) refuses writes with an OOM error: the
 * HTTP answer is a 503 with Retry-After, not a 500, and the log names the setting to raise, once a
 * minute rather than once a request. The OOM error is a real one, from a real Redis filled to its
 * maxmemory through Spring's Redis template, as a write path meets it.
 *
 * <p>No API path fails with it today: every Redis write behind the API (item cache floors and
 * notices, follow counts and inboxes, the Bloom filter, board publishes) degrades and retries or
 * leaves the database as the truth; this guards the path that would.
 */
class RedisFullTest {

  private static Process redis;
  private static LettuceConnectionFactory connections;
  private static StringRedisTemplate template;

  @BeforeAll
  static void fullRedis() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    redis =
        new ProcessBuilder(
                "redis-server",
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--maxmemory",
                "2mb",
                "--maxmemory-policy",
                "noeviction")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    org.awaitility.Awaitility.await().until(() -> listening(port));
    connections = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
    connections.afterPropertiesSet();
    connections.start();
    template = new StringRedisTemplate(connections);
  }

  @AfterAll
  static void stop() throws Exception {
    connections.destroy();
    redis.destroy();
    redis.waitFor(10, TimeUnit.SECONDS);
  }

  @Test
  void aWriteRefusedByAFullRedis_answers503_andWarnsOncePerMinuteNamingTheSetting() {
    RuntimeException refused = fill();
    java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
    ProblemHandler handler = new ProblemHandler(nanos::get);
    ListAppender<ILoggingEvent> logged = capture();
    try {
      ResponseEntity<byte[]> first = handler.unexpected(refused, request());
      nanos.addAndGet(RedisFull.WARN_EVERY.toNanos() - 1);
      ResponseEntity<byte[]> second = handler.unexpected(refused, request());

      for (ResponseEntity<byte[]> answer : java.util.List.of(first, second)) {
        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst("Retry-After")).isEqualTo("5");
        assertThat(new String(answer.getBody(), java.nio.charset.StandardCharsets.UTF_8))
            .contains("storage-unavailable")
            .doesNotContain("OOM");
      }
      assertThat(logged.list).hasSize(1);
      assertThat(logged.list.getFirst().getLevel()).isEqualTo(Level.WARN);
      assertThat(logged.list.getFirst().getFormattedMessage())
          .contains("hotrank.embedded.redis-max-memory")
          .contains("maxmemory")
          .contains("/api/v1/items");

      // A minute after the first, the next refusal is logged again.
      nanos.addAndGet(1);
      assertThat(handler.unexpected(refused, request()).getStatusCode().value()).isEqualTo(503);
      assertThat(logged.list).hasSize(2);
    } finally {
      release(logged);
    }
  }

  @Test
  void anotherRedisError_isStillA500() {
    RuntimeException wrongType;
    template.opsForValue().set("a-string", "v");
    try {
      template.opsForList().leftPush("a-string", "x");
      throw new AssertionError("Redis took a list push onto a string");
    } catch (RuntimeException e) {
      wrongType = e;
    }
    assertThat(RedisFull.causedBy(wrongType)).isFalse();
    assertThat(
            new ProblemHandler(io.hotrank.time.Ticker.system())
                .unexpected(wrongType, request())
                .getStatusCode()
                .value())
        .isEqualTo(500);
  }

  /** Writes until Redis refuses; what the write path then gets. */
  private static RuntimeException fill() {
    String value = "x".repeat(64 * 1024);
    for (int i = 0; i < 1000; i++) {
      try {
        template.opsForValue().set("fill:" + i, value);
      } catch (RuntimeException e) {
        assertThat(RedisFull.causedBy(e)).as(e.toString()).isTrue();
        return e;
      }
    }
    throw new AssertionError("Redis at 2mb took 64 MB");
  }

  private static MockHttpServletRequest request() {
    return new MockHttpServletRequest("PUT", "/api/v1/items/article/1");
  }

  private static ListAppender<ILoggingEvent> capture() {
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    ((Logger) LoggerFactory.getLogger(RedisFull.class)).addAppender(appender);
    return appender;
  }

  private static void release(ListAppender<ILoggingEvent> appender) {
    ((Logger) LoggerFactory.getLogger(RedisFull.class)).detachAppender(appender);
  }

  private static boolean listening(int port) {
    try (Socket ignored = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
