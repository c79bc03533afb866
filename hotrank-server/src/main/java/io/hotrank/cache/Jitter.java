package io.hotrank.cache;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Lengthens each time to live by a random share of itself, so that entries written together do not
 * expire together (a cache avalanche).
 *
 * @param share the largest share added (0.1: up to 10 %)
 */
record Jitter(double share) {

  Duration apply(Duration ttl) {
    long millis = ttl.toMillis();
    long extra = (long) (millis * share * ThreadLocalRandom.current().nextDouble());
    return Duration.ofMillis(millis + extra);
  }
}
