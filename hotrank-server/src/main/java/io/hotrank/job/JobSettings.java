package io.hotrank.job;

import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How a job runs. Bound from {@code hotrank.job.*} as the defaults of every job ({@link
 * JobProperties#job()}); a job's own settings are those defaults with its {@code hotrank.jobs.<job
 * name>.*} values put in ({@link JobProperties#settingsOf}).
 *
 * @param engine what fires the job: {@code lease} (cron in each instance, one run per cycle by a
 *     lease) or {@code task} (the database task platform, {@code io.hotrank.task})
 * @param mode how its lease is held: {@code per-run} or {@code leader}
 * @param store where its lease lives: {@code redis} or {@code jdbc}
 * @param leaseTtl how long its lease lasts unless renewed (renewed every third of it); a dead
 *     holder's job runs elsewhere within this plus one interval
 * @param shutdownGrace how long shutdown waits for running jobs before cancelling them; one value
 *     for every job, set only under {@code hotrank.job}
 */
public record JobSettings(
    @DefaultValue(LEASE_ENGINE) String engine,
    @DefaultValue("per-run") JobMode mode,
    @DefaultValue("redis") String store,
    @DefaultValue("30s") Duration leaseTtl,
    @DefaultValue("10s") Duration shutdownGrace) {

  /** The engine of the {@link JobScheduler}'s own cron and leases. */
  public static final String LEASE_ENGINE = "lease";

  /**
   * Checks the values, naming the properties they came from.
   *
   * @param prefix where the settings were configured: {@code hotrank.job} or {@code
   *     hotrank.jobs.<job name>}
   * @throws IllegalArgumentException on a store other than {@code redis} and {@code jdbc}, a lease
   *     time to live under 30 ms or a negative grace
   */
  JobSettings checked(String prefix) {
    if (!store.equals("redis") && !store.equals("jdbc")) {
      throw new IllegalArgumentException(prefix + ".store=" + store + " must be 'redis' or 'jdbc'");
    }
    if (leaseTtl.toMillis() < 30) {
      throw new IllegalArgumentException(
          prefix + ".lease-ttl=" + leaseTtl + " must be at least 30ms");
    }
    if (shutdownGrace.isNegative()) {
      throw new IllegalArgumentException(
          "hotrank.job.shutdown-grace=" + shutdownGrace + " must not be negative");
    }
    return this;
  }
}
