package io.hotrank.support;

import io.hotrank.job.FaultPoints;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Fault points for the multi-process tests, in place of the service's (which do nothing) when the
 * instance runs from the test classpath with {@code -Dhotrank.fault.dir=<directory>}. A job passing
 * a named point pauses there once, for the milliseconds written in the file {@code
 * <directory>/<job>.<point>}, which it then deletes, and logs {@code fault injected: job=<job>
 * point=<point> pause_ms=<ms> <detail>} for the test to read. The tests use it to stop a process
 * (SIGSTOP) exactly where a stall is most harmful: after a run's last check of its lease and before
 * its fenced write.
 */
@Component
@ConditionalOnProperty(name = "hotrank.fault.dir")
class FileFaultPoints implements FaultPoints {

  private static final Logger log = LoggerFactory.getLogger(FileFaultPoints.class);

  private final String directory;

  FileFaultPoints(Environment environment) {
    this.directory = environment.getRequiredProperty("hotrank.fault.dir");
    log.warn("Fault injection on: triggers are read from {}", directory);
  }

  @Override
  public void point(String job, String where, String detail) {
    if (directory.isEmpty()) {
      return;
    }
    Path trigger = Path.of(directory, job + "." + where);
    try {
      if (!Files.exists(trigger)) {
        return;
      }
      long millis = Long.parseLong(Files.readString(trigger).trim());
      Files.delete(trigger);
      log.warn("fault injected: job={} point={} pause_ms={} {}", job, where, millis, detail);
      Thread.sleep(millis);
    } catch (IOException | NumberFormatException e) {
      log.warn("fault injection at {} of {} failed: {}", where, job, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
