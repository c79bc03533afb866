package io.hotrank.bench.tasks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The coordinator's handle on one instance JVM (see {@link SchedulerInstance}). */
final class InstanceProcess implements AutoCloseable {

  /** What an instance said when it stopped gracefully. */
  record Stopped(long executed, long cpuMillis) {}

  private static final String EOF = "\u0000eof";

  final String name;
  private final Process process;
  private final Path log;
  private final Writer stdin;
  private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();

  private InstanceProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader =
        Thread.ofPlatform()
            .daemon()
            .name("instance-" + name + "-stdout")
            .start(
                () -> {
                  try (BufferedReader out =
                      new BufferedReader(
                          new InputStreamReader(
                              process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                      if (line.startsWith(SchedulerInstance.PREFIX)) {
                        answers.add(line.substring(SchedulerInstance.PREFIX.length()));
                      }
                    }
                  } catch (IOException e) {
                    // the process is gone; EOF below tells the waiters
                  }
                  answers.add(EOF);
                });
    reader.setUncaughtExceptionHandler((t, e) -> answers.add(EOF));
  }

  /**
   * Starts {@code command}, its standard error to {@code log}, its pid appended to {@code pidFile}
   * (if any) for the driver script's clean-up.
   */
  static InstanceProcess launch(String name, List<String> command, Path log, Path pidFile)
      throws IOException {
    Files.createDirectories(log.getParent());
    Process process =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    if (pidFile != null) {
      Files.writeString(
          pidFile,
          process.pid() + "\n",
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND,
          StandardOpenOption.WRITE);
    }
    return new InstanceProcess(name, process, log);
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  /** Waits for the answer starting with {@code word}; fails on the instance's death or timeout. */
  String await(String word, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      String answer = left > 0 ? answers.poll(left, TimeUnit.NANOSECONDS) : null;
      if (answer == null || answer.equals(EOF)) {
        throw new IllegalStateException(
            "Instance "
                + name
                + (answer == null ? " did not answer " + word + " within " + timeout : " died")
                + "; its log: "
                + log
                + logTail());
      }
      if (answer.startsWith(word)) {
        return answer;
      }
    }
  }

  void send(String command) throws IOException {
    stdin.write(command + "\n");
    stdin.flush();
  }

  /** GO, then waits for STARTED. */
  void go() throws IOException, InterruptedException {
    send("GO");
    await("STARTED", Duration.ofSeconds(30));
  }

  /** MARK: the executions begun and the CPU used since the GO, so far. */
  Stopped mark() throws IOException, InterruptedException {
    send("MARK");
    return counts(await("MARKED", Duration.ofSeconds(30)));
  }

  /** STOP, then waits for STOPPED and the exit; killed if it does not stop within a minute. */
  Stopped stop() throws IOException, InterruptedException {
    send("STOP");
    String answer = await("STOPPED", Duration.ofSeconds(60));
    process.waitFor(10, TimeUnit.SECONDS);
    return counts(answer);
  }

  private static Stopped counts(String answer) {
    long executed = 0;
    long cpu = 0;
    for (String field : answer.split(" ")) {
      if (field.startsWith("executed=")) {
        executed = Long.parseLong(field.substring("executed=".length()));
      } else if (field.startsWith("cpu_ms=")) {
        cpu = Long.parseLong(field.substring("cpu_ms=".length()));
      }
    }
    return new Stopped(executed, cpu);
  }

  /** SIGKILL, as {@code kill -9}: no shutdown hook, no graceful close of anything. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** Sends {@code signal} (e.g. STOP, CONT) with kill(1): Java has no API for these. */
  void signal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
    if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + pid() + " failed");
    }
  }

  /** Ends the process whatever its state (a stopped process is continued first so it can die). */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    try {
      signal("CONT");
    } catch (IOException | InterruptedException | RuntimeException e) {
      // best effort: SIGKILL below ends a stopped process too
    }
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return "\n  "
          + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "";
    }
  }
}
