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

  @Bean
  @Primary
  MutableClock mutableClock() {
    return new MutableClock(START);
  }
}
