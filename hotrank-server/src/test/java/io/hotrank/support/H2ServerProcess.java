package io.hotrank.support;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A database server process of a test's own: H2 in TCP server mode over a directory, so a test can
 * kill the database and bring it back without touching any shared database.
 */
public final class H2ServerProcess implements AutoCloseable {

  private final Path dir;
  private final int port;
  private Process process;

  private H2ServerProcess(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  public static H2ServerProcess start(Path dir) throws Exception {
    H2ServerProcess server = new H2ServerProcess(dir, RedisProcess.freePort());
    server.startAgain();
    return server;
  }

  /** The JDBC URL of the hotrank database on this server. */
  public String url() {
    return url("hotrank");
  }

  /**
   * The JDBC URL of another database on this server, created on first use: tests that share the
   * server keep their data apart.
   */
  public String url(String database) {
    return "jdbc:h2:tcp://127.0.0.1:" + port + "/" + database;
  }

  public void startAgain() throws Exception {
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classpath,
                "org.h2.tools.Server",
                "-tcp",
                "-tcpPort",
                Integer.toString(port),
                "-ifNotExists",
                "-baseDir",
                dir.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("h2-server.log").toFile())
            .start();
    org.awaitility.Awaitility.await("H2 server listening on " + port)
        .atMost(java.time.Duration.ofSeconds(30))
        .pollInterval(java.time.Duration.ofMillis(100))
        .until(this::listening);
  }

  private boolean listening() {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      return true;
    } catch (java.io.IOException notYet) {
      return false;
    }
  }

  /** Kills the server process (SIGKILL): connections break, nothing is flushed politely. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive()) {
      kill();
    }
  }
}
