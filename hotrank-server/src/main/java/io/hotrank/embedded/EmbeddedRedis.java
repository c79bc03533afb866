package io.hotrank.embedded;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringApplication;
import org.springframework.context.SmartLifecycle;

/**
 * A Redis server process owned by this JVM: the embedded default's. As a lifecycle bean it is
 * stopped when the context closes, after every other lifecycle bean; a JVM shutdown hook stops it
 * too, so SIGTERM leaves no orphan process.
 *
 * <p>It listens on 127.0.0.1 only, in protected mode, with a random password generated per launch
 * ({@code requirepass}), a {@code maxmemory} and the {@code noeviction} policy, and persists
 * nothing. Its configuration, password included, is written to the process's standard input ({@code
 * redis-server -}): it is neither on the command line, which every local user can read from {@code
 * /proc/<pid>/cmdline}, nor in a file.
 */
final class EmbeddedRedis implements SmartLifecycle {

  /** Bytes of randomness in the password: 256 bits. */
  private static final int PASSWORD_BYTES = 32;

  /** How long a start may take before it is given up. */
  private static final long START_SECONDS = 30;

  private static final String READY = "Ready to accept connections";

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path binary;
  private final int port;
  private final String password;
  private final long maxMemoryBytes;
  private @Nullable Process process;

  private EmbeddedRedis(Path binary, int port, String password, long maxMemoryBytes) {
    this.binary = binary;
    this.port = port;
    this.password = password;
    this.maxMemoryBytes = maxMemoryBytes;
  }

  /**
   * Starts Redis on a free loopback port with a new password.
   *
   * @throws UncheckedIOException if no attempt started
   */
  static EmbeddedRedis launch(Path binary, long maxMemoryBytes) {
    String password = newPassword();
    IOException last = null;
    // A free port found by binding can be taken before Redis binds it; try a few.
    for (int attempt = 0; attempt < 5; attempt++) {
      EmbeddedRedis redis =
          new EmbeddedRedis(binary, LoopbackPorts.free(), password, maxMemoryBytes);
      try {
        redis.startProcess();
        // Spring Boot's shutdown hook runs its handlers after the contexts have closed (requests
        // drained, the scheduler stopped): a JVM hook of its own would stop Redis meanwhile.
        SpringApplication.getShutdownHandlers().add(redis::stop);
        return redis;
      } catch (IOException e) {
        last = e;
      }
    }
    throw new UncheckedIOException("Cannot start the embedded Redis server " + binary, last);
  }

  /** A URL-safe random password of 256 bits. */
  static String newPassword() {
    byte[] bytes = new byte[PASSWORD_BYTES];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  int port() {
    return port;
  }

  /** The server's process id, for tests; -1 while it is stopped. */
  synchronized long pid() {
    return process == null ? -1 : process.pid();
  }

  /** The password clients must give; never logged. */
  String password() {
    return password;
  }

  /** What the process reads on its standard input. */
  String config() {
    return String.join(
        "\n",
        "port " + port,
        "bind 127.0.0.1",
        "protected-mode yes",
        "requirepass " + password,
        "maxmemory " + maxMemoryBytes,
        "maxmemory-policy noeviction",
        "save \"\"",
        "appendonly no",
        "daemonize no",
        "");
  }

  private synchronized void startProcess() throws IOException {
    Process started = new ProcessBuilder(binary.toString(), "-").redirectErrorStream(true).start();
    try (OutputStream in = started.getOutputStream()) {
      in.write(config().getBytes(StandardCharsets.UTF_8));
    }
    CompletableFuture<Void> ready = new CompletableFuture<>();
    Thread reader = new Thread(() -> readOutput(started, ready), "embedded-redis-output-" + port);
    reader.setDaemon(true);
    reader.start();
    try {
      ready.get(START_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      destroy(started);
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      throw new IOException(
          "Redis did not start on 127.0.0.1:" + port + ": " + cause.getMessage(), cause);
    } catch (InterruptedException e) {
      destroy(started);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted starting Redis", e);
    }
    process = started;
  }

  /**
   * Reads Redis's log: completes {@code ready} when it accepts connections, or exceptionally with
   * its last lines when it exits before; then drains it so that Redis never blocks on a full pipe.
   */
  private void readOutput(Process started, CompletableFuture<Void> ready) {
    Deque<String> last = new ArrayDeque<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (!ready.isDone()) {
          if (line.contains(READY)) {
            ready.complete(null);
          } else {
            last.addLast(line.replace(password, "****"));
            if (last.size() > 10) {
              last.removeFirst();
            }
          }
        }
      }
    } catch (IOException closed) {
      // the process ended and its pipe was closed; what follows reports it
    }
    ready.completeExceptionally(
        new IOException("Redis exited before it was ready: " + String.join(" | ", last)));
  }

  /**
   * Nothing the first time: {@link #launch} started the server before the context. Started again,
   * on the same port and with the same password, when the context is restarted after a stop
   * (Spring's test context cache stops the contexts it is not using and restarts them when a test
   * takes one back); the other beans then meet an empty Redis, as after a Redis restart.
   */
  @Override
  public synchronized void start() {
    if (!isRunning()) {
      try {
        startProcess();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot restart the embedded Redis on port " + port, e);
      }
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  @Override
  public int getPhase() {
    return Integer.MIN_VALUE;
  }

  /** SIGTERM, which Redis answers by exiting (it saves nothing); killed if it has not in 10 s. */
  @Override
  public synchronized void stop() {
    if (process != null) {
      destroy(process);
      process = null;
    }
  }

  private static void destroy(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
