package io.hotrank.cache;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What every tiered cache of an instance shares, under {@code hotrank.cache.*}.
 *
 * @param dbConcurrency how many cache misses of this instance may query the database at once (the
 *     bulkhead); keep it below the connection pool's size so that writes always find a connection
 * @param dbWait how long a miss waits for a place in the bulkhead before it is shed with 503
 */
@ConfigurationProperties("hotrank.cache")
public record CacheProperties(
    @DefaultValue("8") int dbConcurrency, @DefaultValue("200ms") Duration dbWait) {

  public CacheProperties {
    if (dbConcurrency < 1) {
      throw new IllegalArgumentException(
          "hotrank.cache.db-concurrency=" + dbConcurrency + " must be at least 1");
    }
    if (dbWait.isNegative()) {
      throw new IllegalArgumentException(
          "hotrank.cache.db-wait=" + dbWait + " must not be negative");
    }
  }
}
