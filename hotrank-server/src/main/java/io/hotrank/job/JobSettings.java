package io.hotrank.job;

import java.time.Duration;

/**
 * The resolved settings of one job.
 *
 * @param mode how its lease is held
 * @param store the lease store's kind
 * @param leaseTtl the lease's time to live
 */
public record JobSettings(JobMode mode, String store, Duration leaseTtl) {

  static void check(String prefix, String store, Duration leaseTtl) {
    if (!store.equals("redis") && !store.equals("jdbc")) {
      throw new IllegalArgumentException(prefix + ".store=" + store + " must be 'redis' or 'jdbc'");
    }
    if (leaseTtl.toMillis() < 30) {
      throw new IllegalArgumentException(
          prefix + ".lease-ttl=" + leaseTtl + " must be at least 30ms");
    }
  }
}
