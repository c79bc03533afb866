package io.hotrank.embedded;

import io.hotrank.HotrankProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;
import redis.embedded.RedisServer;

/**
 * Fills in the embedded default before Spring Boot configures Redis and the datasource.
 *
 * <p>When no Redis is configured ({@code spring.data.redis.url}, {@code .host}, {@code
 * .cluster.nodes} and {@code .sentinel.master} all absent) a real Redis server binary is started on
 * a free loopback port; when no {@code spring.datasource.url} is configured an H2 file database
 * under {@code hotrank.data-dir} (default {@code ./data}) is used. Anything the user configures
 * wins. The Redis process is stopped when the application context closes, after everything that may
 * still use it, and, as a last resort, by a JVM shutdown hook, so SIGTERM leaves no orphan process.
 *
 * <p>This runs as an {@link EnvironmentPostProcessor} rather than as a bean because Boot's Redis
 * and datasource auto-configuration read their properties before any of our beans exist.
 */
public final class EmbeddedDefaults implements EnvironmentPostProcessor, Ordered {

  static final String SOURCE_NAME = "hotrank-embedded-defaults";

  private static final Set<PosixFilePermission> OWNER_DIRECTORY =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");

  private final Log log;

  public EmbeddedDefaults(DeferredLogFactory logs) {
    this.log = logs.getLog(EmbeddedDefaults.class);
  }

  @Override
  public int getOrder() {
    // After config data (application.yml, command line) has been loaded.
    return Ordered.LOWEST_PRECEDENCE;
  }

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication application) {
    Map<String, Object> defaults = new LinkedHashMap<>();
    Binder binder = Binder.get(env);
    Path dataDir =
        binder.bindOrCreate("hotrank", HotrankProperties.class).dataDir().toAbsolutePath();
    boolean embeddedRedis =
        binder.bindOrCreate("hotrank.embedded", EmbeddedProperties.class).redis();
    if (!redisConfigured(env) && embeddedRedis) {
      EmbeddedRedis redis = EmbeddedRedis.launch();
      defaults.put("spring.data.redis.url", "redis://127.0.0.1:" + redis.port());
      // A lifecycle in the lowest phase stops last: after the scheduler, which may still publish.
      application.addInitializers(
          context -> context.getBeanFactory().registerSingleton("hotrankEmbeddedRedis", redis));
      log.info("No Redis configured: started embedded Redis on 127.0.0.1:" + redis.port());
    }
    if (!StringUtils.hasText(env.getProperty("spring.datasource.url"))) {
      createDirectories(dataDir);
      String url = "jdbc:h2:file:" + dataDir.resolve("hotrank") + ";DB_CLOSE_ON_EXIT=FALSE";
      defaults.put("spring.datasource.url", url);
      defaults.put("spring.datasource.username", "sa");
      defaults.put("spring.datasource.password", "");
      // The URL holds no password (that is a property of its own), so it may be logged.
      log.info("No datasource configured: using H2 file database " + url);
      // H2 creates its files (Flyway's first connection) while the context refreshes.
      application.addListeners(new H2FilesOwnerOnly(dataDir, log));
    }
    if (!defaults.isEmpty()) {
      // First, so that a property set but blank (SPRING_DATA_REDIS_URL="") counts as unset; only
      // keys the user left without a value are in this source.
      env.getPropertySources().addFirst(new MapPropertySource(SOURCE_NAME, defaults));
    }
  }

  private static boolean redisConfigured(ConfigurableEnvironment env) {
    return StringUtils.hasText(env.getProperty("spring.data.redis.url"))
        || StringUtils.hasText(env.getProperty("spring.data.redis.host"))
        || StringUtils.hasText(env.getProperty("spring.data.redis.cluster.nodes"))
        || StringUtils.hasText(env.getProperty("spring.data.redis.sentinel.master"));
  }

  /**
   * Creates the data directory when missing: 0700 on a POSIX file system, since it holds the H2
   * database (with the cursor signing key) and the admin token. An existing directory is left as it
   * is.
   */
  private void createDirectories(Path dir) {
    try {
      if (Files.isDirectory(dir)) {
        return;
      }
      if (isPosix(dir)) {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIRECTORY));
      } else {
        log.debug(
            "hotrank.data-dir " + dir + " is not on a POSIX file system: default permissions");
        Files.createDirectories(dir);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create hotrank.data-dir " + dir, e);
    }
  }

  private static boolean isPosix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  /**
   * Once the context is refreshed (H2 and Flyway have created the database files), narrows every
   * {@code <data-dir>/hotrank*.db} file to 0600 on a POSIX file system. H2 creates them with the
   * process's umask (usually 0644); the 0700 directory already hides them, this hides them too
   * where the directory was created by someone else.
   */
  static final class H2FilesOwnerOnly implements ApplicationListener<ContextRefreshedEvent> {
    private final Path dataDir;
    private final Log log;

    H2FilesOwnerOnly(Path dataDir, Log log) {
      this.dataDir = dataDir;
      this.log = log;
    }

    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
      if (!isPosix(dataDir)) {
        log.debug("hotrank.data-dir " + dataDir + " is not on a POSIX file system: H2 files kept");
        return;
      }
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dataDir, "hotrank*.db")) {
        for (Path file : files) {
          if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            Files.setPosixFilePermissions(file, OWNER_FILE);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot restrict the H2 files in " + dataDir, e);
      }
    }
  }

  /**
   * A Redis server process owned by this JVM. As a lifecycle bean it is stopped when the context
   * closes, after every other lifecycle bean.
   */
  static final class EmbeddedRedis implements SmartLifecycle {
    private final RedisServer server;
    private final int port;

    private EmbeddedRedis(RedisServer server, int port) {
      this.server = server;
      this.port = port;
    }

    static EmbeddedRedis launch() {
      IOException last = null;
      // A free port found by binding can be taken before Redis binds it; try a few.
      for (int attempt = 0; attempt < 5; attempt++) {
        int port = freeLoopbackPort();
        try {
          RedisServer server =
              RedisServer.newRedisServer()
                  .port(port)
                  .bind("127.0.0.1")
                  .setting("save \"\"")
                  .setting("appendonly no")
                  .onShutdownForceStop(true)
                  .build();
          server.start();
          EmbeddedRedis redis = new EmbeddedRedis(server, port);
          Runtime.getRuntime().addShutdownHook(new Thread(redis::stop, "embedded-redis-stop"));
          return redis;
        } catch (IOException | RuntimeException e) {
          last = e instanceof IOException io ? io : new IOException(e);
        }
      }
      throw new UncheckedIOException("Cannot start the embedded Redis server", last);
    }

    int port() {
      return port;
    }

    /**
     * Nothing the first time: the environment post-processor started the server before the context.
     * Started again, on the same port, when the context is restarted after a stop (Spring's test
     * context cache stops the contexts it is not using and restarts them when a test takes one
     * back); the other beans then meet an empty Redis, as after a Redis restart.
     */
    @Override
    public synchronized void start() {
      if (!server.isActive()) {
        try {
          server.start();
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot restart the embedded Redis on port " + port, e);
        }
      }
    }

    @Override
    public boolean isRunning() {
      return server.isActive();
    }

    @Override
    public int getPhase() {
      return Integer.MIN_VALUE;
    }

    @Override
    public synchronized void stop() {
      try {
        if (server.isActive()) {
          server.stop();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot stop the embedded Redis on port " + port, e);
      }
    }

    private static int freeLoopbackPort() {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        return socket.getLocalPort();
      } catch (IOException e) {
        throw new UncheckedIOException("No free loopback port", e);
      }
    }
  }
}
