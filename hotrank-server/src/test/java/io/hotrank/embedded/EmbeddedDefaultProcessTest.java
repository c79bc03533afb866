package io.hotrank.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded default as a user meets it: the service started as its own process with no
 * configuration runs a real Redis binary, which refuses clients without its password, and an H2
 * file database; and SIGTERM stops both with the JVM, leaving no orphan Redis process.
 */
@Tag("process")
class EmbeddedDefaultProcessTest {

  private static final Pattern REDIS_PORT =
      Pattern.compile("started embedded Redis on 127\\.0\\.0\\.1:(\\d+)");
  private static final Pattern HTTP_PORT = Pattern.compile("Tomcat started on port (\\d+)");

  @Test
  void sigterm_stopsTheServiceAndItsEmbeddedRedis(@TempDir Path workDir) throws Exception {
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process service =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                classpath,
                "io.hotrank.HotrankApplication",
                "--server.port=0",
                "--hotrank.board.scheduling=false")
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .start();
    List<String> log = new ArrayList<>();
    try {
      int[] ports = awaitStarted(service, log);
      int redisPort = ports[0];
      int httpPort = ports[1];
      // The embedded Redis wants its password; the service, given it, uses Redis.
      assertThat(ping(redisPort)).startsWith("-NOAUTH");
      assertThat(Files.isRegularFile(workDir.resolve("data/hotrank.mv.db"))).isTrue();
      assertThat(Files.readString(workDir.resolve("data/admin-token")).strip())
          .hasSizeGreaterThan(20);
      HttpJson http = new HttpJson("http://127.0.0.1:" + httpPort, "");
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> http.get("/actuator/health/readiness").status() == 200);
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  http.get("/actuator/health")
                      .json()
                      .path("components")
                      .path("redis")
                      .path("status")
                      .toString()
                      .equals("\"UP\""));
      assertThat(
              http.post(
                      "/api/v1/items",
                      "{\"biz\":\"article\",\"id\":1,\"authorId\":7,\"title\":\"first\"}")
                  .status())
          .isEqualTo(201);
      assertThat(http.get("/api/v1/items/article/1").json().path("title").asString())
          .isEqualTo("first");
      List<ProcessHandle> redis =
          service
              .descendants()
              // Debian's redis-server is a link to redis-check-rdb, which the kernel reports
              .filter(p -> p.info().command().orElse("").contains("redis"))
              .toList();
      assertThat(redis).hasSize(1);
      // Its password is neither on its command line nor in the service's log.
      String cmdline = Files.readString(Path.of("/proc/" + redis.getFirst().pid() + "/cmdline"));
      assertThat(cmdline).doesNotContain("requirepass");
      synchronized (log) {
        assertThat(String.join("\n", log)).doesNotContainIgnoringCase("requirepass");
      }

      service.destroy(); // SIGTERM

      assertThat(service.waitFor(30, TimeUnit.SECONDS)).as(String.join("\n", log)).isTrue();
      redis.getFirst().onExit().get(10, TimeUnit.SECONDS);
      assertThat(redis.getFirst().isAlive()).isFalse();
      assertThat(ping(redisPort)).isEmpty();
    } finally {
      service.descendants().forEach(ProcessHandle::destroyForcibly);
      service.destroyForcibly();
    }
  }

  /** Reads the service's output until it has started; returns {redis port, http port}. */
  private static int[] awaitStarted(Process service, List<String> log) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(service.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<int[]> started =
        CompletableFuture.supplyAsync(
            () -> {
              int redisPort = -1;
              try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                  synchronized (log) {
                    log.add(line);
                  }
                  Matcher redis = REDIS_PORT.matcher(line);
                  if (redis.find()) {
                    redisPort = Integer.parseInt(redis.group(1));
                  }
                  Matcher http = HTTP_PORT.matcher(line);
                  if (http.find()) {
                    int[] ports = {redisPort, Integer.parseInt(http.group(1))};
                    // keep draining so the child never blocks on a full pipe; ends at its exit
                    Thread.ofVirtual().start(() -> drain(out));
                    return ports;
                  }
                }
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
              throw new IllegalStateException(
                  "service exited before starting:\n" + String.join("\n", log));
            });
    return started.get(90, TimeUnit.SECONDS);
  }

  private static void drain(BufferedReader out) {
    try {
      while (out.readLine() != null) {
        // discard: only the start-up lines matter
      }
    } catch (IOException closedAtExit) {
      // the JDK closes the pipe when the process exits; nothing left to read
    }
  }

  /** What Redis on {@code port} answers a PING without a password; empty if nothing answers. */
  private static String ping(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      socket.setSoTimeout(1000);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      byte[] answer = new byte[64];
      int n = socket.getInputStream().read(answer);
      return n > 0 ? new String(answer, 0, n, StandardCharsets.US_ASCII) : "";
    } catch (IOException e) {
      return "";
    }
  }
}
