package io.hotrank.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault injection for the multi-process tests, off unless the JVM runs with {@code
 * -Dhotrank.fault.dir=<directory>}. A job passing a named point pauses there once, for the
 * milliseconds written in the file {@code <directory>/<job>.<point>}, which it then deletes. The
 * tests use it to stop a process (SIGSTOP) exactly where a stall is most harmful: after a run's
 * last check of its lease and before its fenced write.
 */
public final class Faults {

  private static final Logger log = LoggerFactory.getLogger(Faults.class);
  private static final String DIRECTORY = System.getProperty("hotrank.fault.dir", "");

  private Faults() {}

  /**
   * Pauses here if a test asked for it.
   *
   * @param detail logged with the pause, for the test to read (for example the run's fence)
   */
  public static void point(String job, String point, String detail) {
    if (DIRECTORY.isEmpty()) {
      return;
    }
    Path trigger = Path.of(DIRECTORY, job + "." + point);
    try {
      if (!Files.exists(trigger)) {
        return;
      }
      long millis = Long.parseLong(Files.readString(trigger).trim());
      Files.delete(trigger);
      log.warn("fault injected: job={} point={} pause_ms={} {}", job, point, millis, detail);
      Thread.sleep(millis);
    } catch (IOException | NumberFormatException e) {
      log.warn("fault injection at {} of {} failed: {}", point, job, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
