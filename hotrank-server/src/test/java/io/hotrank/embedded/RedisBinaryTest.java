package io.hotrank.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which Redis binary the embedded default runs: the configured one, else a Redis 7+ found on PATH,
 * else the outdated bundled one, flagged so that a warning is logged.
 */
class RedisBinaryTest {

  @Test
  void theConfiguredBinary_isUsed(@TempDir Path dir) throws Exception {
    Path fake = fakeRedis(dir, "8.2.1");
    RedisBinary binary = RedisBinary.choose(fake.toString(), "/nonexistent");
    assertThat(binary.path()).isEqualTo(fake);
    assertThat(binary.version()).isEqualTo("8.2.1");
    assertThat(binary.outdated()).isFalse();
    assertThat(binary.source()).isEqualTo("hotrank.embedded.redis-binary");
  }

  @Test
  void aConfiguredBinaryThatIsMissing_stopsTheStart(@TempDir Path dir) {
    assertThatThrownBy(() -> RedisBinary.choose(dir.resolve("nope").toString(), null))
        .hasMessageContaining("hotrank.embedded.redis-binary");
  }

  @Test
  void aRedis7OnPath_isPreferredToTheBundledOne(@TempDir Path dir) throws Exception {
    Path fake = fakeRedis(dir, "7.0.15");
    RedisBinary binary = RedisBinary.choose("", "/nonexistent:" + dir);
    assertThat(binary.path()).isEqualTo(fake);
    assertThat(binary.version()).isEqualTo("7.0.15");
    assertThat(binary.outdated()).isFalse();
  }

  @Test
  void anOlderRedisOnPath_orNone_fallsBackToTheBundledOne_flaggedOutdated(@TempDir Path dir)
      throws Exception {
    fakeRedis(dir, "6.0.16");
    for (String path : new String[] {dir.toString(), "", null}) {
      RedisBinary binary = RedisBinary.choose("", path);
      assertThat(binary.outdated()).as(String.valueOf(path)).isTrue();
      assertThat(binary.version()).startsWith("6.2.");
      assertThat(binary.path()).isNotEqualTo(dir.resolve("redis-server"));
    }
  }

  /** A script answering {@code --version} as redis-server does. */
  private static Path fakeRedis(Path dir, String version) throws Exception {
    Path script = dir.resolve("redis-server");
    Files.writeString(
        script,
        "#!/bin/sh\necho \"Redis server v="
            + version
            + " sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=0\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }
}
