package io.hotrank.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of a test's own (Debian's {@code postgresql} binaries, the newest under
 * {@code /usr/lib/postgresql}), on a free loopback port, its cluster in a fresh directory: tests
 * stop and restart it without touching the shared one. PostgreSQL refuses to run as root, so as
 * root its commands run as the {@code postgres} user ({@code runuser}). Trust authentication, user
 * {@code postgres}.
 */
public final class PostgresProcess implements AutoCloseable {

  private final Path dir;
  private final Path bin;
  private final int port;

  private PostgresProcess(Path dir, Path bin, int port) {
    this.dir = dir;
    this.bin = bin;
    this.port = port;
  }

  /** Whether Debian's PostgreSQL server binaries are here to start one. */
  public static boolean installed() {
    try {
      return newestBin().isPresent();
    } catch (IOException e) {
      return false;
    }
  }

  private static Optional<Path> newestBin() throws IOException {
    Path root = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(root)) {
      return versions
          .map(v -> v.resolve("bin"))
          .filter(b -> b.getParent().getFileName().toString().matches("\\d+"))
          .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
          .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString())));
    }
  }

  /** Initialises a cluster in a new temporary directory and starts it. */
  public static PostgresProcess start() throws Exception {
    Path bin =
        newestBin()
            .orElseThrow(
                () -> new IllegalStateException("no PostgreSQL under /usr/lib/postgresql"));
    Path dir = Files.createTempDirectory("hotrank-pg-");
    if (asRoot()) {
      UserPrincipal postgres =
          dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
      Files.setOwner(dir, postgres);
    }
    PostgresProcess pg = new PostgresProcess(dir, bin, RedisProcess.freePort());
    pg.run(
        bin.resolve("initdb").toString(),
        "-D",
        pg.data(),
        "-U",
        "postgres",
        "-A",
        "trust",
        "--no-sync");
    pg.startAgain();
    return pg;
  }

  public int port() {
    return port;
  }

  /** The JDBC URL of a database on it. */
  public String url(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** Creates a database. */
  public void createDatabase(String name) throws Exception {
    run(
        bin.resolve("createdb").toString(),
        "-h",
        "127.0.0.1",
        "-p",
        Integer.toString(port),
        "-U",
        "postgres",
        name);
  }

  /**
   * Starts the server (again) on the same port and data, and waits until it accepts connections.
   */
  public void startAgain() throws Exception {
    run(
        bin.resolve("pg_ctl").toString(),
        "-D",
        data(),
        "-l",
        dir.resolve("server.log").toString(),
        "-o",
        "-p " + port + " -c listen_addresses=127.0.0.1 -k " + dir,
        "-w",
        "start");
  }

  /**
   * Stops the server with {@code mode}: {@code immediate} is a crash (no checkpoint; the next start
   * recovers from the write-ahead log), {@code fast} a clean stop.
   */
  public void stop(String mode) throws Exception {
    run(bin.resolve("pg_ctl").toString(), "-D", data(), "-m", mode, "-w", "stop");
  }

  private String data() {
    return dir.resolve("data").toString();
  }

  private void run(String... command) throws Exception {
    List<String> full = new ArrayList<>();
    if (asRoot()) {
      full.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    full.addAll(List.of(command));
    Process process =
        new ProcessBuilder(full)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("commands.log").toFile()))
            .start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException(
          String.join(" ", full) + " failed: " + Files.readString(dir.resolve("commands.log")));
    }
  }

  private static boolean asRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  @Override
  public void close() throws Exception {
    try {
      stop("immediate");
    } catch (IllegalStateException alreadyStopped) {
      // nothing to stop
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory
    }
  }
}
