package io.hotrank.job;

import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The jobs' settings: the defaults of every job under {@code hotrank.job.*}, and one job's own
 * under {@code hotrank.jobs.<job name>.*}, each absent value falling back to its default. Board
 * jobs are named {@code board-<board name>}.
 *
 * @param job the defaults of every job
 * @param jobs the settings of single jobs by job name
 */
@ConfigurationProperties("hotrank")
public record JobProperties(
    @DefaultValue @NestedConfigurationProperty JobSettings job,
    @DefaultValue Map<String, Override> jobs) {

  public JobProperties {
    job.checked("hotrank.job");
  }

  /**
   * One job's own settings; an absent value keeps the default.
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

  /** How long shutdown waits for running jobs before cancelling them. */
  public Duration shutdownGrace() {
    return job.shutdownGrace();
  }

  /**
   * The settings of a job: its own over the defaults.
   *
   * @throws IllegalArgumentException if its own make an invalid combination, naming the property
   */
  public JobSettings settingsOf(String name) {
    Override own = jobs.get(name);
    if (own == null) {
      return job;
    }
    return new JobSettings(
            own.engine() == null ? job.engine() : own.engine(),
            own.mode() == null ? job.mode() : own.mode(),
            own.store() == null ? job.store() : own.store(),
            own.leaseTtl() == null ? job.leaseTtl() : own.leaseTtl(),
            job.shutdownGrace())
        .checked("hotrank.jobs." + name);
  }
}
