package io.hotrank.ops;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The health of one layer (Redis, the database) from a probe, logged once per change of state
 * rather than on every probe: a poller asking twice a second during a Redis outage gets DOWN each
 * time, and the log gets one WARN when it went down and one INFO when it came back. Spring Boot's
 * own indicators log a stack trace per failed probe, which is why they are replaced. Thread-safe.
 */
final class StateChangeHealthIndicator implements HealthIndicator {

  /** A probe: returns details when the layer answers, throws when it does not. */
  @FunctionalInterface
  interface Probe {
    Map<String, Object> check() throws Exception;
  }

  private static final Logger log = LoggerFactory.getLogger(StateChangeHealthIndicator.class);

  private final String layer;
  private final Probe probe;
  private final AtomicReference<Status> last = new AtomicReference<>(Status.UNKNOWN);

  StateChangeHealthIndicator(String layer, Probe probe) {
    this.layer = layer;
    this.probe = probe;
  }

  @Override
  public Health health() {
    try {
      Map<String, Object> details = probe.check();
      if (last.getAndSet(Status.UP) == Status.DOWN) {
        log.info("{} answers again", layer);
      }
      return Health.up().withDetails(details).build();
    } catch (Exception e) {
      if (last.getAndSet(Status.DOWN) != Status.DOWN) {
        log.warn("{} does not answer: {}", layer, e.toString());
      }
      return Health.down()
          .withDetail("error", e.getClass().getName() + ": " + e.getMessage())
          .build();
    }
  }
}
