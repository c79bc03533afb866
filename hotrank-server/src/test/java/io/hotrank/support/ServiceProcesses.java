package io.hotrank.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The hotrank instances of a process test and the engine processes they share, started through one
 * fixture that also stops them. Register it on a static field:
 *
 * <pre>{@code
 * @RegisterExtension static final ServiceProcesses processes = new ServiceProcesses();
 * }</pre>
 *
 * <p>What is started before the tests ({@code @BeforeAll}) belongs to the class and is stopped
 * after its last test; what is started in a test (or its {@code @BeforeEach}) is stopped after that
 * test. Either way it is stopped whether the test passed or not, in this order: the instances, last
 * started first (resumed if a test stopped them with {@code SIGSTOP}, then killed with their
 * children), then the Kafka broker, then the H2 server, then Redis.
 *
 * <p>Each scope works in a directory of its own under {@code target/process-tests}, emptied when
 * first used and kept afterwards for a look: {@code <test class>} for the class, {@code <test
 * class>/<test method>} for a test. An instance runs in a sub-directory named after it, where its
 * whole output is written as {@code output.log} when it is stopped. When a test fails, the last
 * lines of every instance's output are printed to standard error, so that the report says what the
 * processes were doing.
 *
 * <p>Tests of one class run one at a time (JUnit's default); instances may be started from several
 * threads at once, and {@link #startTogether} does so.
 */
public final class ServiceProcesses
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

  /** Absolute: instances run in directories of their own, and paths are handed to them. */
  private static final Path ROOT = Path.of("target", "process-tests").toAbsolutePath();

  private static final int TAIL_LINES = 60;
  private static final int BROKER_TAIL_LINES = 20;

  private volatile Scope classScope;
  private volatile Scope testScope;

  /**
   * How to start one instance: its name (of its work directory, and of its log in failure reports),
   * JVM options, how far its wall clock runs ahead of the real one (libfaketime; null: not), and
   * its {@code --name=value} arguments. {@link ServiceProcess#start(Path, List, String...)} adds
   * those every instance gets: a random HTTP port, the admin token, rate limits off.
   */
  public record Instance(
      String name, List<String> jvmOptions, Duration clockAhead, List<String> args) {

    public Instance {
      jvmOptions = List.copyOf(jvmOptions);
      args = List.copyOf(args);
    }

    /** These arguments after the ones already given. */
    public Instance withArgs(List<String> more) {
      return new Instance(name, jvmOptions, clockAhead, concat(args, more));
    }

    /** These JVM options ({@code -Dname=value}) after the ones already given. */
    public Instance withJvmOptions(String... more) {
      return new Instance(name, concat(jvmOptions, List.of(more)), clockAhead, args);
    }

    /**
     * Runs the instance with its wall clock {@code ahead} of the real one (its monotonic clock
     * not).
     */
    public Instance withClockAhead(Duration ahead) {
      return new Instance(name, jvmOptions, ahead, args);
    }

    private static List<String> concat(List<String> first, List<String> second) {
      List<String> all = new ArrayList<>(first);
      all.addAll(second);
      return all;
    }
  }

  /** An instance named {@code name}, with no options or arguments yet. */
  public static Instance instance(String name) {
    return new Instance(name, List.of(), null, List.of());
  }

  /** Starts an instance in its directory and waits until it is ready; stopped with its scope. */
  public ServiceProcess start(Instance instance) throws Exception {
    return start(current(), instance);
  }

  /** {@link #start(Instance)} with just a name and arguments. */
  public ServiceProcess start(String name, List<String> args) throws Exception {
    return start(instance(name).withArgs(args));
  }

  /**
   * Starts the instances at once, as a cluster comes up, and waits until all are ready; returns
   * them by name, in the order given. When one fails to start, the others are still waited for (and
   * stopped with the scope) before the failure is thrown.
   */
  public Map<String, ServiceProcess> startTogether(List<Instance> instances) throws Exception {
    Scope scope = current();
    Map<String, Future<ServiceProcess>> starting = new LinkedHashMap<>();
    try (ExecutorService starter =
        Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("start-", 0).factory())) {
      for (Instance instance : instances) {
        starting.put(instance.name(), starter.submit(() -> start(scope, instance)));
      }
    }
    Map<String, ServiceProcess> started = new LinkedHashMap<>();
    for (var entry : starting.entrySet()) {
      try {
        started.put(entry.getKey(), entry.getValue().get());
      } catch (ExecutionException e) {
        throw new IllegalStateException("starting instance " + entry.getKey(), e.getCause());
      }
    }
    return started;
  }

  /**
   * Takes over a service process the test started another way (such as {@link
   * ServiceProcess#startCommand}): stopped with the scope and reported on failure like the others.
   */
  public ServiceProcess register(ServiceProcess process) {
    current().instances.add(process);
    return process;
  }

  /** Every instance started so far, the class's then the test's, dead or alive, in start order. */
  public List<ServiceProcess> instances() {
    List<ServiceProcess> all = new ArrayList<>();
    for (Scope scope : scopes()) {
      all.addAll(scope.instances);
    }
    return all;
  }

  /**
   * The Redis the instances share: the one started for the class or, when there is none, for this
   * test; started on first use, on a free port.
   */
  public synchronized RedisProcess redis() throws IOException {
    for (Scope scope : scopes()) {
      if (scope.redis != null) {
        return scope.redis;
      }
    }
    Scope scope = current();
    scope.redis = RedisProcess.start();
    return scope.redis;
  }

  /**
   * The H2 server the instances share, its data in the scope's {@code db} directory: the one
   * started for the class or, when there is none, for this test; started on first use, on a free
   * port.
   */
  public synchronized H2ServerProcess h2Server() throws Exception {
    for (Scope scope : scopes()) {
      if (scope.h2Server != null) {
        return scope.h2Server;
      }
    }
    Scope scope = current();
    scope.h2Server = H2ServerProcess.start(scope.dir("db"));
    return scope.h2Server;
  }

  /**
   * The Kafka broker the instances share, its configuration, data and log in the scope's {@code
   * kafka} directory: the one started for the class or, when there is none, for this test; started
   * on first use, on free ports.
   */
  public synchronized KafkaProcess kafka() throws Exception {
    for (Scope scope : scopes()) {
      if (scope.kafka != null) {
        return scope.kafka;
      }
    }
    Scope scope = current();
    scope.kafka = KafkaProcess.start(scope.dir("kafka"));
    return scope.kafka;
  }

  /**
   * The arguments that point an instance at {@link #redis()} and {@link #h2Server()} (starting them
   * if need be): their URLs and H2's user.
   */
  public List<String> engineArgs() throws Exception {
    return List.of(
        "--spring.data.redis.url=" + redis().url(),
        "--spring.datasource.url=" + h2Server().url(),
        "--spring.datasource.username=sa",
        "--spring.datasource.password=");
  }

  /** A directory {@code name} in the current scope's directory, created if need be. */
  public Path dir(String name) throws IOException {
    return current().dir(name);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    classScope = new Scope(ROOT.resolve(context.getRequiredTestClass().getSimpleName()));
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    testScope = new Scope(classScope.dir.resolve(context.getRequiredTestMethod().getName()));
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    Scope scope = testScope;
    testScope = null;
    if (context.getExecutionException().isPresent()) {
      printTails(context.getDisplayName(), classScope, scope);
    }
    scope.stop();
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    Scope scope = classScope;
    classScope = null;
    if (scope == null) {
      return;
    }
    if (context.getExecutionException().isPresent()) {
      printTails(context.getDisplayName(), scope);
    }
    scope.stop();
  }

  private ServiceProcess start(Scope scope, Instance instance) throws Exception {
    Path workDir = scope.dir(instance.name());
    String[] args = instance.args().toArray(String[]::new);
    ServiceProcess process =
        instance.clockAhead() == null
            ? ServiceProcess.start(workDir, instance.jvmOptions(), args)
            : ServiceProcess.startWithClockAhead(
                workDir, instance.clockAhead(), instance.jvmOptions(), args);
    scope.instances.add(process);
    return process;
  }

  private Scope current() {
    Scope scope = testScope != null ? testScope : classScope;
    if (scope == null) {
      throw new IllegalStateException(
          "ServiceProcesses is used outside a test's lifecycle: register it with"
              + " @RegisterExtension on a static field");
    }
    return scope;
  }

  /** The scopes alive, the class's first. */
  private List<Scope> scopes() {
    return Stream.of(classScope, testScope).filter(s -> s != null).toList();
  }

  private static void printTails(String failed, Scope... scopes) {
    StringBuilder report = new StringBuilder();
    for (Scope scope : scopes) {
      if (scope == null) {
        continue;
      }
      for (ServiceProcess instance : scope.instances) {
        List<String> lines = instance.lines();
        Path log = scope.writeOutput(instance);
        report
            .append("\n--- ")
            .append(failed)
            .append(" failed; the last ")
            .append(Math.min(TAIL_LINES, lines.size()))
            .append(" of ")
            .append(lines.size())
            .append(" lines of the instance in ")
            .append(instance.workDir())
            .append(instance.process().isAlive() ? " (running)" : " (exited)")
            .append(log == null ? "" : ", all of them in " + log)
            .append(":\n");
        lines
            .subList(Math.max(0, lines.size() - TAIL_LINES), lines.size())
            .forEach(line -> report.append(line).append('\n'));
      }
      if (scope.kafka != null) {
        List<String> lines = scope.kafka.tail(BROKER_TAIL_LINES);
        report
            .append("\n--- ")
            .append(failed)
            .append(" failed; the last ")
            .append(lines.size())
            .append(" lines of the Kafka broker, all of them in ")
            .append(scope.kafka.log())
            .append(":\n");
        lines.forEach(line -> report.append(line).append('\n'));
      }
    }
    if (!report.isEmpty()) {
      System.err.println(report);
    }
  }

  /** What one scope (the class, or one test) started, and the directory it works in. */
  private static final class Scope {

    final Path dir;
    final List<ServiceProcess> instances =
        java.util.Collections.synchronizedList(new ArrayList<>());
    RedisProcess redis;
    H2ServerProcess h2Server;
    KafkaProcess kafka;
    private boolean emptied;

    Scope(Path dir) {
      this.dir = dir;
    }

    /**
     * A sub-directory, created; the scope's directory is emptied of an earlier run's on first use.
     */
    synchronized Path dir(String name) throws IOException {
      if (!emptied) {
        deleteTree(dir);
        emptied = true;
      }
      return Files.createDirectories(dir.resolve(name));
    }

    /**
     * Writes the instance's output so far to {@code output.log} in its directory; null if it could
     * not.
     */
    Path writeOutput(ServiceProcess instance) {
      Path log = instance.workDir().resolve("output.log");
      try {
        Files.write(log, instance.lines(), StandardCharsets.UTF_8);
        return log;
      } catch (IOException e) {
        System.err.println("could not write " + log + ": " + e);
        return null;
      }
    }

    /** Stops everything, each step whatever became of the one before; throws the first failure. */
    void stop() throws Exception {
      List<Exception> failures = new ArrayList<>();
      List<ServiceProcess> started;
      synchronized (instances) {
        started = new ArrayList<>(instances);
      }
      for (ServiceProcess instance : started.reversed()) {
        try {
          if (instance.process().isAlive()) {
            instance.signal("CONT");
          }
        } catch (Exception exitedMeanwhile) {
          // a process that exited on its own needs no resuming
        }
        try {
          instance.close();
          instance.process().waitFor(30, TimeUnit.SECONDS);
          writeOutput(instance);
        } catch (Exception e) {
          failures.add(e);
        }
      }
      if (kafka != null) {
        try {
          kafka.close();
        } catch (Exception e) {
          failures.add(e);
        }
      }
      if (h2Server != null) {
        try {
          h2Server.close();
        } catch (Exception e) {
          failures.add(e);
        }
      }
      if (redis != null) {
        try {
          redis.close();
        } catch (Exception e) {
          failures.add(e);
        }
      }
      if (!failures.isEmpty()) {
        Exception first = failures.getFirst();
        failures.subList(1, failures.size()).forEach(first::addSuppressed);
        throw first;
      }
    }

    private static void deleteTree(Path root) throws IOException {
      if (!Files.exists(root)) {
        return;
      }
      try (Stream<Path> paths = Files.walk(root)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
  }
}
