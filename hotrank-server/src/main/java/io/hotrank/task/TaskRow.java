package io.hotrank.task;

import org.jspecify.annotations.Nullable;

/** One row of {@code hr_task}; times in epoch milliseconds of the database's clock. */
record TaskRow(
    String name,
    String job,
    @Nullable String cron,
    String zone,
    @Nullable Long intervalMs,
    String status,
    boolean paused,
    boolean triggered,
    long nextTime,
    long fireTime,
    long cycleTime,
    long rescheduledAt,
    long startedAt,
    boolean manual,
    int attempt,
    long heartbeat,
    long version,
    String owner,
    int consecutiveFailures,
    Misfire misfire,
    long timeoutMs,
    int maxRetries,
    long retryBackoffMs,
    String parameters,
    String source,
    long createdAt,
    long updatedAt) {

  static final String WAITING = "waiting";
  static final String RUNNING = "running";
  static final String PAUSED = "paused";

  /** Declared by a job's settings and reconciled at startup. */
  static final String FROM_CONFIG = "config";

  /** Created over the admin API. */
  static final String FROM_API = "api";

  /** A task's definition as inserted or updated: not running, never run, its state left out. */
  static TaskRow definition(
      String name,
      String job,
      @Nullable String cron,
      String zone,
      @Nullable Long intervalMs,
      boolean paused,
      long nextTime,
      Misfire misfire,
      long timeoutMs,
      int maxRetries,
      long retryBackoffMs,
      String parameters,
      String source) {
    return new TaskRow(
        name,
        job,
        cron,
        zone,
        intervalMs,
        paused ? PAUSED : WAITING,
        paused,
        false,
        nextTime,
        0,
        0,
        0,
        0,
        false,
        0,
        0,
        0,
        "",
        0,
        misfire,
        timeoutMs,
        maxRetries,
        retryBackoffMs,
        parameters,
        source,
        0,
        0);
  }

  Schedule schedule() {
    return Schedule.of(cron, zone, intervalMs);
  }

  boolean running() {
    return status.equals(RUNNING);
  }

  /**
   * This row once a scheduled claim by {@code owner} at the database's time {@code now} has taken
   * it: running, its fire time {@link #dueFireTime}, its fence the version plus one, never below
   * {@code now} in microseconds ({@link TaskSql#fenceAfter}).
   */
  TaskRow claimedBy(String owner, long now) {
    return new TaskRow(
        name,
        job,
        cron,
        zone,
        intervalMs,
        RUNNING,
        paused,
        triggered,
        nextTime,
        dueFireTime(),
        cycleTime,
        rescheduledAt,
        now,
        false,
        attempt,
        now,
        Math.max(version + 1, now * 1000),
        owner,
        consecutiveFailures,
        misfire,
        timeoutMs,
        maxRetries,
        retryBackoffMs,
        parameters,
        source,
        createdAt,
        updatedAt);
  }

  /** The fire time a scheduled claim runs: the unfinished cycle's, or the next one. */
  long dueFireTime() {
    return cycleTime > 0 ? cycleTime : nextTime;
  }
}
