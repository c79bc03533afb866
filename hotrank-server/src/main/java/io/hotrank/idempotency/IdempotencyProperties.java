package io.hotrank.idempotency;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of idempotency keys under {@code hotrank.idempotency.*}.
 *
 * @param retention how long the answer of a request with a key is kept: a repeat within it is
 *     answered from it; after it the key is free again (pruned hourly)
 * @param lease how long a key stays claimed by a request that has not finished: a repeat within it
 *     is answered 409, after it (the instance died while running the request) it runs again. Longer
 *     than any write can take (an event batch waits 30 s at most for its append)
 */
@ConfigurationProperties("hotrank.idempotency")
public record IdempotencyProperties(
    @DefaultValue("24h") Duration retention, @DefaultValue("60s") Duration lease) {

  public IdempotencyProperties {
    if (retention.compareTo(Duration.ofMinutes(1)) < 0) {
      throw new IllegalArgumentException(
          "hotrank.idempotency.retention=" + retention + " must be at least 1m");
    }
    if (lease.compareTo(Duration.ofSeconds(35)) < 0 || lease.compareTo(retention) >= 0) {
      // Shorter than an append may wait, a running batch could lose its key to its own retry.
      throw new IllegalArgumentException(
          "hotrank.idempotency.lease="
              + lease
              + " must be at least 35s (an event batch may wait 30 s) and shorter than the"
              + " retention");
    }
  }
}
