package io.hotrank.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.ServiceProcess;
import io.hotrank.support.ServiceProcesses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

/**
 * The container recipe without a container: no Docker daemon runs where the tests do, so this test
 * takes the repository's {@code Dockerfile} apart and does what an image build and a container
 * start would do with the jar the build made. It runs the Dockerfile's extract step (the {@code
 * RUN} with {@code -Djarmode=tools}), lays the layers out in the order the {@code COPY} lines do,
 * starts the service there with the {@code ENTRYPOINT}'s command line and checks readiness, the
 * {@code HEALTHCHECK} command (run by this machine's bash), and a write, a fold, a recompute and a
 * board read. Each piece is read from the Dockerfile, so changing it changes what runs here.
 *
 * <p>Not covered: the base images, the user, the {@code VOLUME}, the build stage, and compose.
 */
@Tag("process")
class ContainerRecipeProcessTest {

  private static final Path MODULE = Path.of("").toAbsolutePath();

  @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();

  @Test
  void theExtractedLayers_startWithTheEntrypoint_andServeABoard() throws Exception {
    Dockerfile dockerfile = Dockerfile.read(MODULE.getParent().resolve("Dockerfile"));
    Path jar = execJar();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");

    Path buildDir = processes.dir("extract");
    List<String> extract = dockerfile.extractCommand();
    run(buildDir, withJava(java, withJar(extract, jar)));
    Path extracted = buildDir.resolve(after(extract, "--destination"));

    List<String> layers = dockerfile.copiedLayers();
    assertThat(layers)
        .as("the runtime stage copies every layer of the jar, least often changed first")
        .containsExactlyElementsOf(
            run(
                    buildDir,
                    List.of(
                        java.toString(), "-Djarmode=tools", "-jar", jar.toString(), "list-layers"))
                .lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .toList());
    Path app = processes.dir("app");
    for (String layer : layers) {
      copyTree(extracted.resolve(layer), app);
    }

    List<String> entrypoint = withJava(java, dockerfile.entrypoint());
    ServiceProcess service = processes.register(ServiceProcess.startCommand(app, entrypoint));
    HttpJson http = service.http();
    Answer ready = http.get("/actuator/health/readiness");
    assertThat(ready.status()).isEqualTo(200);
    assertThat(ready.json().get("status").asString()).isEqualTo("UP");
    assertThat(healthcheck(dockerfile, service.port()))
        .as("HEALTHCHECK exit status while ready")
        .isZero();

    assertThat(
            http.post(
                    "/api/v1/items",
                    "{\"biz\":\"article\",\"id\":1,\"authorId\":7,\"title\":\"boxed\"}")
                .status())
        .isEqualTo(201);
    assertThat(
            http.post(
                    "/api/v1/events",
                    "{\"events\":[{\"biz\":\"article\",\"itemId\":1,\"type\":\"like\"}]}")
                .status())
        .isEqualTo(202);
    assertThat(http.admin("/api/v1/admin/events/fold").status()).isEqualTo(200);
    Answer recomputed = http.admin("/api/v1/admin/boards/article-hot/recompute");
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
    Answer board = http.get("/api/v1/boards/article-hot");
    assertThat(board.status()).as(board.body()).isEqualTo(200);
    assertThat(board.json().get("items").get(0).get("itemId").asLong()).isEqualTo(1);
    assertThat(board.json().get("items").get(0).get("title").asString()).isEqualTo("boxed");

    assertThat(service.terminate()).as("exited within 30 s of SIGTERM").isTrue();
    assertThat(healthcheck(dockerfile, service.port()))
        .as("HEALTHCHECK exit status once stopped")
        .isNotZero();
  }

  /** The jar {@code package} made; this test runs after it (Failsafe, or -Dtest after install). */
  private static Path execJar() throws IOException {
    Path target = MODULE.resolve("target");
    try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
      return files
          .filter(f -> f.getFileName().toString().matches("hotrank-server-.*-exec\\.jar"))
          .findFirst()
          .orElseThrow(
              () ->
                  new IllegalStateException(
                      "no hotrank-server-*-exec.jar in "
                          + target
                          + ": this test needs the packaged service; run `./mvnw -DskipTests"
                          + " package` (or install) first, or run it through Failsafe in verify"));
    }
  }

  /** Runs the Dockerfile's HEALTHCHECK command with bash, the port in SERVER_PORT. */
  private static int healthcheck(Dockerfile dockerfile, int port) throws Exception {
    ProcessBuilder check = new ProcessBuilder(dockerfile.healthcheck()).redirectErrorStream(true);
    check.environment().put("SERVER_PORT", Integer.toString(port));
    Process process = check.start();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        fail("HEALTHCHECK did not finish in 30 s: " + dockerfile.healthcheck());
      }
      return process.exitValue();
    } finally {
      process.destroyForcibly();
    }
  }

  /** Runs a command to its end in {@code dir}; fails with its output unless it exits with 0. */
  private static String run(Path dir, List<String> command) throws Exception {
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    try {
      byte[] output = process.getInputStream().readAllBytes();
      if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
        fail(command + " failed:\n" + new String(output, StandardCharsets.UTF_8));
      }
      return new String(output, StandardCharsets.UTF_8);
    } finally {
      process.destroyForcibly();
    }
  }

  private static List<String> withJava(Path java, List<String> command) {
    assertThat(command.getFirst()).as("the launcher of " + command).isEqualTo("java");
    List<String> replaced = new ArrayList<>(command);
    replaced.set(0, java.toString());
    return replaced;
  }

  private static List<String> withJar(List<String> command, Path jar) {
    List<String> replaced = new ArrayList<>(command);
    replaced.set(command.indexOf("-jar") + 1, jar.toString());
    return replaced;
  }

  private static String after(List<String> command, String option) {
    int at = command.indexOf(option);
    assertThat(at).as(option + " in " + command).isNotNegative().isLessThan(command.size() - 1);
    return command.get(at + 1);
  }

  /** Copies {@code from}'s content into {@code to}, as {@code COPY from/ to} does. */
  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /**
   * The instructions of the Dockerfile this test needs, continuation lines joined. The extract step
   * is the {@code RUN} with {@code -Djarmode=tools}; the layers are the {@code COPY --from} sources
   * below the extract destination; {@code ENTRYPOINT} and {@code HEALTHCHECK ... CMD} are in exec
   * (JSON) form.
   */
  record Dockerfile(List<String> instructions) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static Dockerfile read(Path file) throws IOException {
      List<String> instructions = new ArrayList<>();
      StringBuilder current = new StringBuilder();
      for (String line : Files.readAllLines(file)) {
        String stripped = line.strip();
        if (current.isEmpty() && (stripped.isEmpty() || stripped.startsWith("#"))) {
          continue;
        }
        if (stripped.endsWith("\\")) {
          current.append(stripped, 0, stripped.length() - 1).append(' ');
        } else {
          instructions.add(current.append(stripped).toString());
          current.setLength(0);
        }
      }
      return new Dockerfile(instructions);
    }

    List<String> extractCommand() {
      String run = only("RUN ", "-Djarmode=tools");
      return Arrays.asList(run.substring("RUN ".length()).strip().split("\\s+"));
    }

    /** The layer names of the COPY lines that take from the extract destination, in order. */
    List<String> copiedLayers() {
      String destination = "/" + after(extractCommand(), "--destination") + "/";
      List<String> layers = new ArrayList<>();
      for (String instruction : instructions) {
        String[] words = instruction.split("\\s+");
        if (words[0].equals("COPY") && words[1].startsWith("--from=")) {
          String source = words[2];
          int at = source.indexOf(destination);
          if (at >= 0) {
            layers.add(source.substring(at + destination.length()).replaceAll("/+$", ""));
          }
        }
      }
      return layers;
    }

    List<String> entrypoint() {
      return jsonArray(only("ENTRYPOINT ", "").substring("ENTRYPOINT ".length()));
    }

    List<String> healthcheck() {
      String healthcheck = only("HEALTHCHECK ", "");
      return jsonArray(healthcheck.substring(healthcheck.indexOf(" CMD ") + " CMD ".length()));
    }

    private String only(String instruction, String containing) {
      List<String> found =
          instructions.stream()
              .filter(i -> i.startsWith(instruction) && i.contains(containing))
              .toList();
      assertThat(found)
          .as("Dockerfile " + instruction + "containing '" + containing + "'")
          .hasSize(1);
      return found.getFirst();
    }

    private static List<String> jsonArray(String json) {
      return Arrays.asList(JSON.readValue(json.strip(), String[].class));
    }
  }
}
