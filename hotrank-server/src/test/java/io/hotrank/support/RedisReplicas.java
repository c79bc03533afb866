package io.hotrank.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Redis servers with replicas, started by a test on free loopback ports from the system's {@code
 * redis-server} (Redis 7; Debian's {@code redis-server} package, {@code redis-sentinel} for
 * Sentinel, which {@code .ci/run} installs), each in a directory of its own with its log, no
 * persistence: either a master, one replica and three Sentinels ({@link #sentinel}), or a Cluster
 * of three masters with one replica each ({@link #cluster}). A test kills a master with {@code kill
 * -9} ({@link #killMaster}) and waits for the promotion. Every process is killed on {@link
 * #close()}.
 */
public final class RedisReplicas implements AutoCloseable {

  /** The name Sentinel monitors the master under ({@code spring.data.redis.sentinel.master}). */
  public static final String MASTER_NAME = "hotrank";

  private final Path dir;
  private final Map<Integer, Process> servers = new LinkedHashMap<>();
  private final List<Integer> sentinels = new ArrayList<>();

  private RedisReplicas(Path dir) {
    this.dir = dir;
  }

  /**
   * A master, a replica of it and three Sentinels watching it (quorum 2, a master is down after 2 s
   * without an answer).
   */
  public static RedisReplicas sentinel(Path dir) throws Exception {
    RedisReplicas group = new RedisReplicas(dir);
    try {
      int master = group.server(List.of());
      int replica = group.server(List.of("--replicaof", "127.0.0.1", Integer.toString(master)));
      group.await(
          "the replica to sync",
          () -> info(replica, "replication").contains("master_link_status:up"));
      for (int i = 0; i < 3; i++) {
        int port = RedisProcess.freePort();
        Path conf = group.dir(port).resolve("sentinel.conf");
        Files.writeString(
            conf,
            String.join(
                "\n",
                "port " + port,
                "bind 127.0.0.1",
                "dir " + group.dir(port),
                "logfile " + group.dir(port).resolve("redis.log"),
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master + " 2",
                "sentinel down-after-milliseconds " + MASTER_NAME + " 2000",
                "sentinel failover-timeout " + MASTER_NAME + " 10000",
                "sentinel parallel-syncs " + MASTER_NAME + " 1",
                ""));
        group.launch(port, List.of(sentinelCommand(), conf.toString(), "--sentinel"));
        group.sentinels.add(port);
      }
      for (int port : group.sentinels) {
        group.await(
            "Sentinel " + port + " to know the others and the replica",
            () ->
                command(port, "SENTINEL sentinels " + MASTER_NAME).split("\r\n")[0].equals("*2")
                    && command(port, "SENTINEL replicas " + MASTER_NAME).startsWith("*1"));
      }
      return group;
    } catch (Exception e) {
      group.close();
      throw e;
    }
  }

  /** A Cluster of three masters, each with one replica; node timeout 2 s. */
  public static RedisReplicas cluster(Path dir) throws Exception {
    RedisReplicas group = new RedisReplicas(dir);
    try {
      List<String> nodes = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        int port =
            group.server(
                List.of(
                    "--cluster-enabled",
                    "yes",
                    "--cluster-node-timeout",
                    "2000",
                    "--cluster-config-file",
                    "nodes.conf"));
        nodes.add("127.0.0.1:" + port);
      }
      List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
      create.addAll(nodes);
      create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
      Process creating =
          new ProcessBuilder(create)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("cluster-create.log").toFile())
              .start();
      if (creating.waitFor() != 0) {
        throw new IllegalStateException(
            "redis-cli --cluster create failed: "
                + Files.readString(dir.resolve("cluster-create.log")));
      }
      for (int port : group.servers.keySet()) {
        group.await(
            "node " + port + " to see the cluster ok",
            () -> command(port, "CLUSTER INFO").contains("cluster_state:ok"));
      }
      group.await("every replica to sync", group::replicasInSync);
      return group;
    } catch (Exception e) {
      group.close();
      throw e;
    }
  }

  /** Sentinel's address list, {@code spring.data.redis.sentinel.nodes}. */
  public String sentinelNodes() {
    return String.join(",", sentinels.stream().map(p -> "127.0.0.1:" + p).toList());
  }

  /** The nodes' address list, {@code spring.data.redis.cluster.nodes}. */
  public String clusterNodes() {
    return String.join(",", servers.keySet().stream().map(p -> "127.0.0.1:" + p).toList());
  }

  /** The port of the master Sentinel names now. */
  public int sentinelMaster() throws IOException {
    String answer =
        command(sentinels.getFirst(), "SENTINEL get-master-addr-by-name " + MASTER_NAME);
    String[] lines = answer.split("\r\n");
    return Integer.parseInt(lines[lines.length - 1]);
  }

  /** The port of the Cluster master that serves {@code key}'s slot now. */
  public int clusterMasterOf(String key) throws IOException {
    for (int port : alive()) {
      String answer = command(port, "CLUSTER KEYSLOT " + key);
      long slot = Long.parseLong(answer.substring(1).strip());
      for (String line : command(port, "CLUSTER NODES").split("\n")) {
        String[] f = line.split(" ");
        if (f.length < 9 || !f[2].contains("master") || f[2].contains("fail")) {
          continue;
        }
        for (int i = 8; i < f.length; i++) {
          String[] range = f[i].strip().split("-");
          long from = Long.parseLong(range[0]);
          long to = range.length > 1 ? Long.parseLong(range[1]) : from;
          if (slot >= from && slot <= to) {
            return Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1, f[1].indexOf('@')));
          }
        }
      }
      break;
    }
    throw new IllegalStateException("no master serves " + key);
  }

  /** {@code kill -9} of the server on {@code port}. */
  public void killMaster(int port) throws InterruptedException {
    Process process = servers.remove(port);
    process.destroyForcibly();
    process.waitFor();
  }

  /** Whether the servers still alive answer {@code cluster_state:ok} everywhere. */
  public boolean clusterOk() {
    for (int port : alive()) {
      try {
        if (!command(port, "CLUSTER INFO").contains("cluster_state:ok")) {
          return false;
        }
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }

  private List<Integer> alive() {
    return servers.entrySet().stream()
        .filter(e -> e.getValue().isAlive() && !sentinels.contains(e.getKey()))
        .map(Map.Entry::getKey)
        .toList();
  }

  private boolean replicasInSync() {
    for (int port : alive()) {
      try {
        String replication = info(port, "replication");
        if (replication.contains("role:slave") && !replication.contains("master_link_status:up")) {
          return false;
        }
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }

  private int server(List<String> extra) throws IOException, InterruptedException {
    int port = RedisProcess.freePort();
    List<String> command =
        new ArrayList<>(
            List.of(
                "redis-server",
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir(port).toString(),
                "--logfile",
                dir(port).resolve("redis.log").toString()));
    command.addAll(extra);
    launch(port, command);
    await("redis-server on " + port, () -> command(port, "PING").startsWith("+PONG"));
    return port;
  }

  private void launch(int port, List<String> command) throws IOException {
    servers.put(
        port,
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir(port).resolve("stdout.log").toFile())
            .start());
  }

  private Path dir(int port) throws IOException {
    return Files.createDirectories(dir.resolve(Integer.toString(port)));
  }

  /** {@code redis-sentinel} where installed, else {@code redis-server} in Sentinel mode. */
  private static String sentinelCommand() {
    for (String path : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      if (Files.isExecutable(Path.of(path, "redis-sentinel"))) {
        return Path.of(path, "redis-sentinel").toString();
      }
    }
    return "redis-server";
  }

  private void await(String what, IoCondition condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (condition.holds()) {
          return;
        }
      } catch (IOException | RuntimeException e) {
        // not up yet
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("waited 30 s for " + what + " in " + dir);
  }

  @FunctionalInterface
  private interface IoCondition {
    boolean holds() throws IOException;
  }

  /** Polls {@code condition} every 50 ms for up to {@code timeout}; whether it came true. */
  public static boolean within(Duration timeout, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
  }

  private static String info(int port, String section) throws IOException {
    return command(port, "INFO " + section);
  }

  /** One command in the inline protocol to the server on {@code port}; the raw reply. */
  public static String command(int port, String inline) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      socket.setSoTimeout(2000);
      OutputStream out = socket.getOutputStream();
      out.write((inline + "\r\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[262144];
      int total = 0;
      // Bulk replies (INFO, CLUSTER NODES) may come in more than one read: read until the reply is
      // whole, as its RESP framing tells (not until a pause, which cost every command 100 ms).
      while (total < buffer.length && replyEnd(buffer, 0, total) < 0) {
        int n = in.read(buffer, total, buffer.length - total);
        if (n < 0) {
          break;
        }
        total += n;
      }
      return new String(buffer, 0, total, StandardCharsets.UTF_8);
    }
  }

  /**
   * Where the RESP reply starting at {@code from} ends within the first {@code total} bytes, or -1
   * if it is not all there yet.
   */
  private static int replyEnd(byte[] b, int from, int total) {
    int lineEnd = -1;
    for (int i = from; i + 1 < total; i++) {
      if (b[i] == '\r' && b[i + 1] == '\n') {
        lineEnd = i;
        break;
      }
    }
    if (lineEnd < 0) {
      return -1;
    }
    int next = lineEnd + 2;
    switch (b[from]) {
      case '$' -> {
        long length =
            Long.parseLong(new String(b, from + 1, lineEnd - from - 1, StandardCharsets.US_ASCII));
        if (length < 0) {
          return next;
        }
        return next + length + 2 <= total ? (int) (next + length + 2) : -1;
      }
      case '*' -> {
        long count =
            Long.parseLong(new String(b, from + 1, lineEnd - from - 1, StandardCharsets.US_ASCII));
        for (long k = 0; k < count; k++) {
          next = replyEnd(b, next, total);
          if (next < 0) {
            return -1;
          }
        }
        return next;
      }
      default -> {
        return next; // +simple, -error, :integer
      }
    }
  }

  @Override
  public void close() {
    for (Process process : servers.values()) {
      process.destroyForcibly();
    }
    for (Process process : servers.values()) {
      try {
        process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    servers.clear();
  }
}
