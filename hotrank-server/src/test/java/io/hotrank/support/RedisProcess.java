package io.hotrank.support;

import java.io.IOException;
import redis.embedded.RedisServer;

/**
 * A Redis server process of a test's own, on a free port (the Redis binary shipped by
 * embedded-redis): tests stop, restart and freeze it without touching any shared Redis.
 */
public final class RedisProcess implements AutoCloseable {

  private final int port;
  private RedisServer server;
  private ProcessHandle handle;

  private RedisProcess(int port) {
    this.port = port;
  }

  public static RedisProcess start() throws IOException {
    RedisProcess redis = new RedisProcess(freePort());
    redis.startAgain();
    return redis;
  }

  /** {@link #start()} for a static field's initializer: an I/O failure is unchecked. */
  public static RedisProcess startForClass() {
    try {
      return start();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public int port() {
    return port;
  }

  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  /** Starts the server (again) on the same port, empty: it keeps nothing on disk. */
  public void startAgain() throws IOException {
    java.util.Set<Long> before =
        redisChildren().map(ProcessHandle::pid).collect(java.util.stream.Collectors.toSet());
    server =
        RedisServer.newRedisServer()
            .port(port)
            .bind("127.0.0.1")
            .setting("save \"\"")
            .setting("appendonly no")
            .build();
    server.start();
    handle = redisChildren().filter(p -> !before.contains(p.pid())).findFirst().orElse(null);
  }

  private static java.util.stream.Stream<ProcessHandle> redisChildren() {
    return ProcessHandle.current()
        .children()
        .filter(p -> p.info().command().orElse("").contains("redis-server"));
  }

  public void stop() throws IOException {
    if (server != null && server.isActive()) {
      server.stop();
    }
  }

  /** SIGSTOP: the process stays, holds its connections, and answers nothing. */
  public void freeze() throws Exception {
    signal("-STOP");
  }

  /** SIGCONT after {@link #freeze()}. */
  public void thaw() throws Exception {
    signal("-CONT");
  }

  private void signal(String signal) throws Exception {
    if (handle == null || !handle.isAlive()) {
      throw new IllegalStateException("no redis-server process on port " + port);
    }
    int exit = new ProcessBuilder("kill", signal, Long.toString(handle.pid())).start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("kill " + signal + " failed with " + exit);
    }
  }

  /** Sends one command in the inline protocol and returns the raw reply. */
  public String command(String inline) throws IOException {
    return RedisReplicas.command(port, inline);
  }

  @Override
  public void close() throws Exception {
    try {
      thaw();
    } catch (RuntimeException notRunning) {
      // already stopped
    }
    stop();
  }

  /**
   * A free loopback port below the kernel's ephemeral range, as the embedded Redis takes one: a
   * process stopped and started again on its port must not find it taken by a client connection.
   */
  public static int freePort() throws IOException {
    return io.hotrank.embedded.LoopbackPorts.free();
  }
}
