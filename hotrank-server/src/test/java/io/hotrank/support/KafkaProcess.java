package io.hotrank.support;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A Kafka broker of a test's own as a child JVM: one KRaft node that is both broker and controller,
 * on two free loopback ports (PLAINTEXT for clients, CONTROLLER for its quorum of one), started
 * from Kafka's own jars on the test classpath ({@code kafka.Kafka}). Tests kill it with {@code
 * SIGKILL} and start it again on the same ports and data, as a broker crashes and comes back.
 *
 * <p>Everything lives in the directory it is given: {@code server.properties}, {@code data} (its
 * log directory, formatted once with Kafka's {@code StorageTool}), and {@code broker.log}, where
 * every run of it appends its output. The settings are a single node's: replication factor 1 and
 * min ISR 1 for the offsets and transaction state topics, one partition each (Kafka's 50 cost a
 * restarted broker seconds of loading), and no initial rebalance delay, so that a consumer group
 * forms at once; the rest is Kafka's defaults.
 */
public final class KafkaProcess implements AutoCloseable {

  /** How long a (re)start may take: a restart after SIGKILL waits out the old broker session. */
  private static final Duration READY = Duration.ofSeconds(90);

  private static final String LOGBACK =
      """
      <configuration>
        <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
          <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
        </appender>
        <root level="INFO"><appender-ref ref="OUT"/></root>
      </configuration>
      """;

  private final Path dir;
  private final int port;
  private final int controllerPort;
  private Process process;

  private KafkaProcess(Path dir, int port, int controllerPort) {
    this.dir = dir;
    this.port = port;
    this.controllerPort = controllerPort;
  }

  /**
   * Writes the broker's configuration into {@code dir}, formats its storage, starts it and waits
   * until it answers an admin client.
   */
  public static KafkaProcess start(Path dir) throws Exception {
    int port = RedisProcess.freePort();
    int controllerPort = RedisProcess.freePort();
    while (controllerPort == port) {
      controllerPort = RedisProcess.freePort();
    }
    KafkaProcess kafka = new KafkaProcess(dir, port, controllerPort);
    kafka.configure();
    kafka.startAgain();
    return kafka;
  }

  /** What clients pass as {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  /** Where every run of the broker has written its output. */
  public Path log() {
    return dir.resolve("broker.log");
  }

  private void configure() throws Exception {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("logback.xml"), LOGBACK, StandardCharsets.UTF_8);
    String properties =
        String.join(
            "\n",
            "process.roles=broker,controller",
            "node.id=1",
            "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
            "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
            "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
            "controller.listener.names=CONTROLLER",
            "inter.broker.listener.name=PLAINTEXT",
            "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "log.dirs=" + dir.resolve("data"),
            "offsets.topic.replication.factor=1",
            "offsets.topic.num.partitions=1",
            "transaction.state.log.num.partitions=1",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "group.initial.rebalance.delay.ms=0",
            "");
    Files.writeString(dir.resolve("server.properties"), properties, StandardCharsets.UTF_8);
    Process format =
        new ProcessBuilder(
                java(
                    "kafka.tools.StorageTool",
                    "format",
                    "--cluster-id",
                    Uuid.randomUuid().toString(),
                    "--config",
                    dir.resolve("server.properties").toString()))
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("format.log").toFile())
            .start();
    if (!format.waitFor(60, TimeUnit.SECONDS)) {
      format.destroyForcibly();
      throw new IllegalStateException("formatting the broker's storage took over 60 s");
    }
    if (format.exitValue() != 0) {
      throw new IllegalStateException(
          "formatting the broker's storage failed with "
              + format.exitValue()
              + ":\n"
              + Files.readString(dir.resolve("format.log")));
    }
  }

  /**
   * Starts the broker (again) on the same ports and data, and waits until it answers an admin
   * client; a restart after {@link #kill()} takes about the broker's session timeout, while the
   * controller lets the old registration expire.
   */
  public void startAgain() throws Exception {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("the broker on " + bootstrapServers() + " is running");
    }
    process =
        new ProcessBuilder(java("kafka.Kafka", dir.resolve("server.properties").toString()))
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(Redirect.appendTo(log().toFile()))
            .start();
    try {
      awaitReady();
    } catch (Exception e) {
      kill();
      throw e;
    }
  }

  private void awaitReady() throws Exception {
    Map<String, Object> config =
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3_000);
    long deadline = System.nanoTime() + READY.toNanos();
    try (Admin admin = Admin.create(config)) {
      while (true) {
        if (!process.isAlive()) {
          throw new IllegalStateException(
              "the broker exited with " + process.exitValue() + "; its output is in " + log());
        }
        try {
          admin.describeCluster().nodes().get(3, TimeUnit.SECONDS);
          return;
        } catch (Exception notYet) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                "the broker on "
                    + bootstrapServers()
                    + " did not answer in "
                    + READY.toSeconds()
                    + " s; its output is in "
                    + log(),
                notYet);
          }
          Thread.sleep(200);
        }
      }
    }
  }

  /** Whether the broker's process is alive (it may still be starting). */
  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** Kills the broker (SIGKILL) and waits until it is gone: nothing is flushed or closed. */
  public void kill() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the broker on " + bootstrapServers() + " did not die");
      }
    }
  }

  /** The last {@code n} lines of the broker's output. */
  public List<String> tail(int n) {
    try {
      List<String> lines = Files.readAllLines(log(), StandardCharsets.UTF_8);
      return lines.subList(Math.max(0, lines.size() - n), lines.size());
    } catch (IOException e) {
      return List.of("(could not read " + log() + ": " + e + ")");
    }
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }

  private List<String> java(String mainClass, String... args) {
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-Dlogback.configurationFile=" + dir.resolve("logback.xml"),
                "-cp",
                classpath,
                mainClass));
    command.addAll(List.of(args));
    return command;
  }
}
