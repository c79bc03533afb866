package io.hotrank.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What every benchmark report says about the machine it ran on, and the versions measured. */
public final class BenchMachine {

  private BenchMachine() {}

  /** CPUs, CPU model, OS and architecture. */
  public static String describe() {
    String cpu = "unknown CPU";
    try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      cpu =
          lines
              .filter(l -> l.startsWith("model name"))
              .map(l -> l.substring(l.indexOf(':') + 1).strip())
              .findFirst()
              .orElse(cpu);
    } catch (IOException | UncheckedIOException e) {
      // not Linux; keep "unknown CPU"
    }
    return Runtime.getRuntime().availableProcessors()
        + " CPUs (nproc), "
        + cpu
        + ", "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.arch");
  }

  /** The 1, 5 and 15 minute load averages, or "n/a" off Linux. */
  public static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+");
      return fields[0] + " / " + fields[1] + " / " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }

  /** The version of a jar on the classpath, from its Maven pom.properties, or "unknown". */
  public static String mavenVersion(String group, String artifact) {
    String resource = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
    try (var in = BenchMachine.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return "unknown";
      }
      java.util.Properties properties = new java.util.Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
