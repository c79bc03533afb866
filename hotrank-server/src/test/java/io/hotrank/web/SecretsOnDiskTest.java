package io.hotrank.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.HotrankApplication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Secrets on disk and in the log, as a user meets them at the embedded default (no datasource, no
 * admin token configured): the generated admin token is stored in a file only its owner may read,
 * under a data directory only its owner may enter, next to owner-only H2 files (which hold the
 * cursor signing key); the log names the token's file and never holds the token, neither when it is
 * generated nor when it is read back, nor when it is configured. Each test starts the application
 * itself, on a fresh data directory, and captures what it logs.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretsOnDiskTest {

  @Test
  void aGeneratedToken_isStoredOwnerOnly_andNeverLogged(@TempDir Path tmp, CapturedOutput output)
      throws Exception {
    Path dataDir = tmp.resolve("data"); // hotrank creates it
    try (ConfigurableApplicationContext context = start(dataDir, "")) {
      assertThat(context.isRunning()).isTrue();
    }
    Path file = dataDir.resolve("admin-token");
    String token = Files.readString(file).strip();
    assertThat(token).hasSizeGreaterThanOrEqualTo(32);
    assertThat(output.getAll()).doesNotContain(token).contains(file.toAbsolutePath().toString());
    assertThat(permissions(dataDir)).isEqualTo("rwx------");
    assertThat(permissions(file)).isEqualTo("rw-------");
    List<Path> h2 = h2Files(dataDir);
    assertThat(h2).isNotEmpty();
    for (Path db : h2) {
      assertThat(permissions(db)).as(db.toString()).isEqualTo("rw-------");
    }
    try (Stream<Path> left = Files.list(dataDir)) {
      assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  @Test
  void aStoredToken_readBack_isNarrowedToTheOwnerWithAWarning_andNeverLogged(
      @TempDir Path tmp, CapturedOutput output) throws Exception {
    Path dataDir = tmp.resolve("data");
    Files.createDirectories(dataDir);
    Path file = dataDir.resolve("admin-token");
    String token = "stored-" + UUID.randomUUID();
    Files.writeString(file, token + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    try (ConfigurableApplicationContext context = start(dataDir, "")) {
      assertThat(context.getBean(Operators.class).authenticateHeader("Bearer " + token))
          .contains(new Operator(Operators.ADMIN, Role.ADMIN));
    }
    assertThat(permissions(file)).isEqualTo("rw-------");
    assertThat(output.getAll())
        .doesNotContain(token)
        .contains("Admin token read from " + file.toAbsolutePath())
        .containsPattern("WARN.*Admin token file .*admin-token was rw-r--r--");
  }

  @Test
  void aConfiguredToken_isNeverLogged_andNothingIsStored(@TempDir Path tmp, CapturedOutput output)
      throws Exception {
    Path dataDir = tmp.resolve("data");
    String token = "configured-" + UUID.randomUUID();
    try (ConfigurableApplicationContext context = start(dataDir, token)) {
      assertThat(context.getBean(Operators.class).authenticateHeader("Bearer " + token))
          .contains(new Operator(Operators.ADMIN, Role.ADMIN));
    }
    assertThat(output.getAll()).doesNotContain(token).contains("hotrank.admin.token");
    assertThat(dataDir.resolve("admin-token")).doesNotExist();
  }

  /** The application on the embedded H2 default in {@code dataDir}, as a user starts it. */
  private static ConfigurableApplicationContext start(Path dataDir, String adminToken) {
    List<String> args = new ArrayList<>();
    args.add("--hotrank.data-dir=" + dataDir);
    args.add("--hotrank.admin.token=" + adminToken);
    args.add("--server.port=0");
    args.add("--server.address=127.0.0.1");
    args.add("--hotrank.board.scheduling=false");
    // The shared Redis when the environment names one (under a key prefix of its own), else the
    // embedded binary.
    String redis = System.getenv().getOrDefault("HOTRANK_TEST_REDIS_URL", "");
    args.add("--spring.data.redis.url=" + redis);
    args.add("--hotrank.redis.key-prefix=hrtest:" + UUID.randomUUID() + ":");
    return new SpringApplicationBuilder(HotrankApplication.class).run(args.toArray(String[]::new));
  }

  private static List<Path> h2Files(Path dataDir) throws Exception {
    try (Stream<Path> files = Files.list(dataDir)) {
      return files
          .filter(p -> p.getFileName().toString().matches("hotrank.*\\.db"))
          .sorted()
          .toList();
    }
  }

  private static String permissions(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
