package io.hotrank.job;

import java.time.Duration;

/**
 * The resolved settings of one job.
 *
 * @param engine what fires it: {@code lease} (the {@link JobScheduler}) or another {@link
 *     JobEngine}'s name ({@code task})
 * @param mode how its lease is held
 * @param store the lease store's kind
 * @param leaseTtl the lease's time to live
 */
public record JobSettings(String engine, JobMode mode, String store, Duration leaseTtl) {

  /** The engine of the {@link JobScheduler}'s own cron and leases. */
  public static final String LEASE_ENGINE = "lease";

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
