package io.hotrank.support;

import java.time.Instant;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Replaces the system clock with a {@link MutableClock} that tests set. */
@TestConfiguration(proxyBeanMethods = false)
public class TestClockConfiguration {

  /** Where the clock starts: a fixed instant, so expected scores are reproducible. */
  public static final Instant START = Instant.parse("2026-06-01T12:00:00Z");

  /**
   * A context whose clock must agree with Redis's own ({@code hotrank.test.clock=real}: window
   * buckets expire at instants computed from the clock) starts at the real time, to the second.
   */
  @Bean
  @Primary
  MutableClock mutableClock(org.springframework.core.env.Environment environment) {
    return new MutableClock(
        "real".equals(environment.getProperty("hotrank.test.clock"))
            ? Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
            : START);
  }
}
