package io.hotrank.redis;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How hotrank uses Redis, under {@code hotrank.redis.*}. Where Redis is is Spring Boot's {@code
 * spring.data.redis.*}.
 *
 * @param keyPrefix prefix of every Redis key and Pub/Sub channel hotrank uses
 * @param readTimeout longest a read-path call waits for Redis before falling back to the next layer
 * @param breakerOpenFor after repeated Redis read failures, how long reads skip Redis before
 *     probing it again
 * @param breakerWindow how many recent Redis reads the circuit breaker judges
 * @param breakerMinimumCalls how many reads the breaker needs in its window before it may open
 * @param breakerFailureRate percentage of failed reads in the window that opens the breaker
 * @param breakerProbes reads let through while the breaker probes whether Redis is back
 */
@ConfigurationProperties("hotrank.redis")
public record HotrankRedisProperties(
    @DefaultValue("hr:") String keyPrefix,
    @DefaultValue("50ms") Duration readTimeout,
    @DefaultValue("5s") Duration breakerOpenFor,
    @DefaultValue("10") int breakerWindow,
    @DefaultValue("3") int breakerMinimumCalls,
    @DefaultValue("50") int breakerFailureRate,
    @DefaultValue("2") int breakerProbes) {

  public HotrankRedisProperties {
    if (readTimeout.isNegative() || readTimeout.isZero()) {
      throw new IllegalArgumentException(
          "hotrank.redis.read-timeout=" + readTimeout + " must be positive");
    }
    if (breakerOpenFor.isNegative() || breakerOpenFor.isZero()) {
      throw new IllegalArgumentException(
          "hotrank.redis.breaker-open-for=" + breakerOpenFor + " must be positive");
    }
    if (breakerWindow < 1 || breakerMinimumCalls < 1 || breakerProbes < 1) {
      throw new IllegalArgumentException(
          "hotrank.redis.breaker-window, breaker-minimum-calls and breaker-probes must be at least"
              + " 1");
    }
    if (breakerFailureRate < 1 || breakerFailureRate > 100) {
      throw new IllegalArgumentException(
          "hotrank.redis.breaker-failure-rate=" + breakerFailureRate + " must be 1 to 100");
    }
  }
}
