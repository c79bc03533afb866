package io.hotrank.job;

/** How a job's lease is held. */
public enum JobMode {
  /**
   * A lease per run, acquired before it and released after; a scheduled run's lease is keyed by its
   * fire time, so a cycle runs once even on instances whose clocks or ticks differ a little.
   */
  PER_RUN,
  /**
   * One instance holds the lease, renewed by the watchdog, and runs every cycle; the others try to
   * take it at each of their ticks and stay idle while it is held.
   */
  LEADER;

  /** The name as written in configuration: {@code per-run}, {@code leader}. */
  public String configName() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
