package io.hotrank.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A hotrank instance as its own operating-system process, started from the test classpath, for
 * claims about processes (signals, several instances, faults). Its output is kept for failure
 * messages. Closing it kills what is left of it and its children.
 */
public final class ServiceProcess implements AutoCloseable {

  private static final Pattern HTTP_PORT = Pattern.compile("Tomcat started on port (\\d+)");
  public static final String ADMIN_TOKEN = "process-admin-token";

  private final Process process;
  private final Path workDir;
  private final List<String> output = new ArrayList<>();
  private final int port;

  private ServiceProcess(Process process, Path workDir) throws Exception {
    this.process = process;
    this.workDir = workDir;
    this.port = awaitStarted();
    try {
      org.awaitility.Awaitility.await("readiness of the instance on port " + port)
          .atMost(java.time.Duration.ofSeconds(60))
          .pollInterval(java.time.Duration.ofMillis(200))
          .until(() -> http().get("/actuator/health/readiness").status() == 200);
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new IllegalStateException(e.getMessage() + "; its output:\n" + output(), e);
    }
  }

  /**
   * Starts {@code io.hotrank.HotrankApplication} from the test classpath with JVM options such as
   * {@code -Dname=value} and the given {@code --name=value} arguments (after those {@link
   * #startCommand} adds, and with rate limits off) in {@code workDir}, and waits until it listens
   * and reports ready on {@code /actuator/health/readiness}.
   */
  public static ServiceProcess start(Path workDir, List<String> jvmOptions, String... args)
      throws Exception {
    return start(workDir, List.of(), jvmOptions, args);
  }

  /**
   * {@link #start(Path, List, String...)} with the process's wall clock set {@code ahead} of the
   * real one by libfaketime (Debian package {@code faketime}); its monotonic clock is left alone.
   */
  public static ServiceProcess startWithClockAhead(
      Path workDir, Duration ahead, List<String> jvmOptions, String... args) throws Exception {
    return start(
        workDir, List.of("faketime", "-f", "+" + ahead.toSeconds() + "s"), jvmOptions, args);
  }

  private static ServiceProcess start(
      Path workDir, List<String> launcher, List<String> jvmOptions, String... args)
      throws Exception {
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(launcher);
    command.addAll(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classpath, "io.hotrank.HotrankApplication"));
    List<String> all = new ArrayList<>();
    // These processes drive the API far faster than one client should.
    all.add("--hotrank.limits.enabled=false");
    all.addAll(List.of(args));
    return startCommand(workDir, command, all.toArray(String[]::new));
  }

  /**
   * Starts hotrank with a command line of the caller's, such as a container image's entry point
   * (the launcher, its JVM options and its main class), followed by a random HTTP port, the admin
   * token and {@code args}, in {@code workDir}; waits as {@link #start(Path, List, String...)}
   * does.
   */
  public static ServiceProcess startCommand(Path workDir, List<String> command, String... args)
      throws Exception {
    List<String> full = new ArrayList<>(command);
    full.addAll(List.of("--server.port=0", "--hotrank.admin.token=" + ADMIN_TOKEN));
    full.addAll(List.of(args));
    return launch(workDir, full);
  }

  private static ServiceProcess launch(Path workDir, List<String> command) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
    builder.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
    // libfaketime 0.9.10 otherwise "fixes" the JVM's timed waits on the monotonic clock it was told
    // to leave alone, and they return at once: every parked thread spins, and the instance took 90
    // s to start on two cores instead of 16, starving the processes beside it.
    builder.environment().put("FAKETIME_FORCE_MONOTONIC_FIX", "0");
    Process process = builder.start();
    try {
      return new ServiceProcess(process, workDir);
    } catch (Exception e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw e;
    }
  }

  private int awaitStarted() throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Integer> started = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                  synchronized (output) {
                    output.add(line);
                  }
                  Matcher http = HTTP_PORT.matcher(line);
                  if (http.find()) {
                    started.complete(Integer.parseInt(http.group(1)));
                  }
                }
              } catch (IOException closedAtExit) {
                // the JDK closes the pipe when the process exits
              }
              started.completeExceptionally(
                  new IllegalStateException("service exited before listening:\n" + output()));
            });
    return started.get(90, TimeUnit.SECONDS);
  }

  public int port() {
    return port;
  }

  public Process process() {
    return process;
  }

  /** The directory it runs in. */
  public Path workDir() {
    return workDir;
  }

  /** An HTTP client for this instance, admin token included. */
  public HttpJson http() {
    return new HttpJson("http://127.0.0.1:" + port, ADMIN_TOKEN);
  }

  /** Everything the process printed so far. */
  public String output() {
    synchronized (output) {
      return String.join("\n", output);
    }
  }

  /**
   * Sends a signal ({@code STOP}, {@code CONT}, {@code KILL}...) to the JVM (the process itself, or
   * the JVM a launcher such as {@code faketime} started), and waits for it to exit after a {@code
   * KILL}.
   */
  public void signal(String name) throws Exception {
    ProcessHandle jvm =
        process
            .descendants()
            .filter(p -> p.info().command().orElse("").endsWith("/java"))
            .findFirst()
            .orElse(process.toHandle());
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(jvm.pid())).start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill -" + name + " " + jvm.pid() + " failed");
    }
    if (name.equals("KILL")) {
      jvm.onExit().get(30, TimeUnit.SECONDS);
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Output lines so far. */
  public List<String> lines() {
    synchronized (output) {
      return List.copyOf(output);
    }
  }

  /** Sends SIGTERM and waits for the exit, at most 30 seconds; returns whether it exited. */
  public boolean terminate() throws InterruptedException {
    process.destroy();
    return process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }
}
