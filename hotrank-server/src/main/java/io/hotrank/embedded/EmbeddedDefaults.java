package io.hotrank.embedded;

import io.hotrank.HotrankProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Fills in the embedded default before Spring Boot configures Redis and the datasource.
 *
 * <p>When no Redis is configured ({@code spring.data.redis.url}, {@code .host}, {@code
 * .cluster.nodes} and {@code .sentinel.master} all absent) a real Redis server binary ({@link
 * RedisBinary}: the configured one, a Redis 7+ on PATH, else the bundled one with a warning) is
 * started on a free loopback port, with a random password and a {@code maxmemory} ({@link
 * EmbeddedRedis}); when no {@code spring.datasource.url} is configured an H2 file database under
 * {@code hotrank.data-dir} (default {@code ./data}) is used. Anything the user configures wins. The
 * Redis process is stopped when the application context closes, after everything that may still use
 * it, and, as a last resort, by a JVM shutdown hook, so SIGTERM leaves no orphan process.
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
    EmbeddedProperties embedded = binder.bindOrCreate("hotrank.embedded", EmbeddedProperties.class);
    if (!redisConfigured(env) && embedded.redis()) {
      startRedis(embedded, defaults, application);
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

  /**
   * Starts the embedded Redis and points Spring's Redis client at it with {@code
   * spring.data.redis.url}, password included: Boot reads the password from the URL when one is
   * set, and this source comes first, so that a blank {@code spring.data.redis.url} (set but empty,
   * as {@code SPRING_DATA_REDIS_URL=""}) counts as unset. The URL stays in memory: hotrank never
   * logs it, Actuator's {@code env} endpoint is not exposed, and Lettuce's {@code RedisURI} prints
   * no password. A property source added later and first (a test's dynamic properties) still wins.
   */
  private void startRedis(
      EmbeddedProperties embedded, Map<String, Object> defaults, SpringApplication application) {
    RedisBinary binary = RedisBinary.choose(embedded.redisBinary(), System.getenv("PATH"));
    if (binary.outdated()) {
      log.warn(
          "Using the Redis "
              + binary.version()
              + " binary bundled with embedded-redis: it lacks years of Redis security fixes."
              + " Install Redis 7 or newer (Debian and Ubuntu: apt-get install redis-server) so"
              + " that a redis-server on PATH is used, or name one with"
              + " hotrank.embedded.redis-binary, or configure an external Redis"
              + " (spring.data.redis.url)");
    }
    EmbeddedRedis redis = EmbeddedRedis.launch(binary.path(), embedded.redisMaxMemory().toBytes());
    defaults.put(
        "spring.data.redis.url", "redis://:" + redis.password() + "@127.0.0.1:" + redis.port());
    // A lifecycle in the lowest phase stops last: after the scheduler, which may still publish.
    application.addInitializers(
        context -> context.getBeanFactory().registerSingleton("hotrankEmbeddedRedis", redis));
    log.info(
        "No Redis configured: started embedded Redis on 127.0.0.1:"
            + redis.port()
            + " ("
            + binary.path()
            + ", Redis "
            + binary.version()
            + ", "
            + binary.source()
            + "; password required, maxmemory "
            + embedded.redisMaxMemory()
            + " with noeviction)");
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
}
