package io.hotrank.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What every benchmark report says about the machine it ran on. */
final class BenchMachine {

  private BenchMachine() {}

  /** CPUs, CPU model, OS and architecture. */
  static String describe() {
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
  static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+");
      return fields[0] + " / " + fields[1] + " / " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }
}
