package io.hotrank.job;

import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Per-job settings under {@code hotrank.jobs.<job name>.*}, each falling back to {@code
 * hotrank.job.*} ({@link JobProperties}). Board jobs are named {@code board-<board name>}.
 *
 * @param jobs the overrides by job name
 */
@ConfigurationProperties("hotrank")
public record JobOverrides(@DefaultValue Map<String, Override> jobs) {

  /**
   * One job's overrides; an absent value keeps the default.
   *
   * @param engine {@code lease} or {@code task}
   * @param mode {@code per-run} or {@code leader}
   * @param store {@code redis} or {@code jdbc}
   * @param leaseTtl the lease's time to live
   */
  public record Override(
      @Nullable String engine,
      @Nullable JobMode mode,
      @Nullable String store,
      @Nullable Duration leaseTtl) {}

  /** The settings of a job: its overrides over the defaults. */
  public JobSettings settingsOf(String job, JobProperties defaults) {
    Override override = jobs.get(job);
    JobSettings settings =
        new JobSettings(
            override == null || override.engine() == null ? defaults.engine() : override.engine(),
            override == null || override.mode() == null ? defaults.mode() : override.mode(),
            override == null || override.store() == null ? defaults.store() : override.store(),
            override == null || override.leaseTtl() == null
                ? defaults.leaseTtl()
                : override.leaseTtl());
    JobSettings.check("hotrank.jobs." + job, settings.store(), settings.leaseTtl());
    return settings;
  }
}
