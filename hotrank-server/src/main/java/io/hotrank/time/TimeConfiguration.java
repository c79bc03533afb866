package io.hotrank.time;

import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The time sources of the service; tests add settable ones as {@code @Primary} beans. */
@Configuration(proxyBeanMethods = false)
class TimeConfiguration {

  /** Wall-clock time of scores, windows and timestamps, in UTC. */
  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  /** Elapsed time of timeouts, deadlines and short memories. */
  @Bean
  Ticker ticker() {
    return Ticker.system();
  }
}
