package io.hotrank.job;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Defaults of every job under {@code hotrank.job.*}; one job overrides them under {@code
 * hotrank.jobs.<job name>.*} ({@link JobOverrides}).
 *
 * @param engine what fires jobs: {@code lease} (cron in each instance, one run per cycle by a
 *     lease) or {@code task} (the database task platform, {@code io.hotrank.task})
 * @param mode {@code per-run} or {@code leader}
 * @param store where leases live: {@code redis} or {@code jdbc}
 * @param leaseTtl how long a lease lasts unless renewed (renewed every third of it); a dead
 *     holder's job runs elsewhere within this plus one interval
 * @param shutdownGrace how long shutdown waits for running jobs before cancelling them
 */
@ConfigurationProperties("hotrank.job")
public record JobProperties(
    @DefaultValue("lease") String engine,
    @DefaultValue("per-run") JobMode mode,
    @DefaultValue("redis") String store,
    @DefaultValue("30s") Duration leaseTtl,
    @DefaultValue("10s") Duration shutdownGrace) {

  public JobProperties {
    JobSettings.check("hotrank.job", store, leaseTtl);
    if (shutdownGrace.isNegative()) {
      throw new IllegalArgumentException(
          "hotrank.job.shutdown-grace=" + shutdownGrace + " must not be negative");
    }
  }
}
