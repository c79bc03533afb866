package io.hotrank.embedded;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import redis.embedded.core.ExecutableProvider;

/**
 * The {@code redis-server} executable the embedded default runs, and why: the one named by {@code
 * hotrank.embedded.redis-binary}; else a {@code redis-server} on {@code PATH} of version 7.0 or
 * newer (a distribution's package, which gets security backports); else the binary bundled in the
 * embedded-redis jar (6.2), which lacks years of security fixes and is only a last resort.
 *
 * @param path the executable
 * @param version what {@code --version} reported, for example {@code 7.0.15}; empty if unknown
 * @param source how it was chosen, for the log
 * @param outdated whether it is the bundled 6.2 binary, which lacks security fixes
 */
record RedisBinary(Path path, String version, String source, boolean outdated) {

  /** The oldest Redis found on PATH that is used instead of the bundled binary. */
  static final int MINIMUM_MAJOR = 7;

  private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.(\\d+)\\.(\\d+)");

  /**
   * Chooses the executable.
   *
   * @param configured {@code hotrank.embedded.redis-binary}; empty to search PATH
   * @param pathVariable the value of {@code PATH}, or null
   * @throws IllegalStateException if the configured binary does not exist or does not run
   */
  static RedisBinary choose(String configured, @Nullable String pathVariable) {
    if (!configured.isBlank()) {
      Path path = Path.of(configured.strip()).toAbsolutePath();
      if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
        throw new IllegalStateException(
            "hotrank.embedded.redis-binary=" + configured + " is not an executable file");
      }
      String version = version(path);
      if (version == null) {
        throw new IllegalStateException(
            "hotrank.embedded.redis-binary=" + configured + " did not report a Redis version");
      }
      return new RedisBinary(path, version, "hotrank.embedded.redis-binary", false);
    }
    Path onPath = findOnPath(pathVariable);
    if (onPath != null) {
      String version = version(onPath);
      if (version != null && major(version) >= MINIMUM_MAJOR) {
        return new RedisBinary(onPath, version, "redis-server on PATH", false);
      }
    }
    return bundled();
  }

  /** The binary bundled in the embedded-redis jar, extracted to a temporary file. */
  static RedisBinary bundled() {
    try {
      Path path = ExecutableProvider.newJarResourceProvider().get().toPath();
      String version = version(path);
      return new RedisBinary(
          path, version == null ? "" : version, "bundled with embedded-redis", true);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot extract the bundled Redis binary", e);
    }
  }

  private static @Nullable Path findOnPath(@Nullable String pathVariable) {
    if (pathVariable == null) {
      return null;
    }
    for (String dir : pathVariable.split(File.pathSeparator)) {
      if (dir.isBlank()) {
        continue;
      }
      Path candidate = Path.of(dir, "redis-server");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate.toAbsolutePath();
      }
    }
    return null;
  }

  /** What {@code <path> --version} reports as {@code x.y.z}, or null if it did not. */
  static @Nullable String version(Path path) {
    try {
      Process process =
          new ProcessBuilder(path.toString(), "--version").redirectErrorStream(true).start();
      process.getOutputStream().close();
      String out;
      try (InputStream in = process.getInputStream()) {
        out = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
      }
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return null;
      }
      Matcher m = VERSION.matcher(out);
      return m.find() ? m.group(1) + "." + m.group(2) + "." + m.group(3) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  static int major(String version) {
    return Integer.parseInt(version.substring(0, version.indexOf('.')));
  }
}
