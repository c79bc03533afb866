package io.hotrank.task;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The task platform's settings under {@code hotrank.task.*}.
 *
 * @param polling whether this instance claims and runs tasks (the admin API works either way)
 * @param pollInterval the longest the poller sleeps; it wakes earlier for the next fire time and
 *     when a task is triggered here
 * @param heartbeatInterval how often a running task's owner renews its heartbeat
 * @param heartbeatTimeout how old a running task's heartbeat may grow before another instance takes
 *     the run over; the owner cancels its run when it could not renew for this long
 * @param maxConcurrent how many tasks this instance runs at once
 * @param historyRetention how long {@code hr_task_run} rows are kept
 * @param timeout a new task's run timeout unless it sets one
 * @param maxRetries a new task's retries of a failed run unless it sets them
 * @param retryBackoff a new task's first retry delay (doubled for each further retry) unless set
 * @param history which runs are kept ({@link TaskHistory})
 * @param historyKeep with {@link TaskHistory#FAILURES}, how many of each task's last successful
 *     runs are kept
 */
@ConfigurationProperties("hotrank.task")
public record TaskProperties(
    @DefaultValue("true") boolean polling,
    @DefaultValue("1s") Duration pollInterval,
    @DefaultValue("2s") Duration heartbeatInterval,
    @DefaultValue("10s") Duration heartbeatTimeout,
    @DefaultValue("4") int maxConcurrent,
    @DefaultValue("7d") Duration historyRetention,
    @DefaultValue("30m") Duration timeout,
    @DefaultValue("3") int maxRetries,
    @DefaultValue("10s") Duration retryBackoff,
    @DefaultValue("failures") TaskHistory history,
    @DefaultValue("20") int historyKeep) {

  /** The most successful runs a task's ring keeps. */
  public static final int MAX_HISTORY_KEEP = 1000;

  public TaskProperties {
    if (pollInterval.toMillis() < 10) {
      throw new IllegalArgumentException(
          "hotrank.task.poll-interval=" + pollInterval + " must be at least 10ms");
    }
    if (heartbeatInterval.toMillis() < 10) {
      throw new IllegalArgumentException(
          "hotrank.task.heartbeat-interval=" + heartbeatInterval + " must be at least 10ms");
    }
    if (heartbeatTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
      throw new IllegalArgumentException(
          "hotrank.task.heartbeat-timeout="
              + heartbeatTimeout
              + " must be at least twice hotrank.task.heartbeat-interval="
              + heartbeatInterval);
    }
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException(
          "hotrank.task.max-concurrent=" + maxConcurrent + " must be at least 1");
    }
    if (maxRetries < 0 || timeout.toMillis() < 1 || retryBackoff.isNegative()) {
      throw new IllegalArgumentException(
          "hotrank.task.timeout, max-retries and retry-backoff must be positive");
    }
    if (historyKeep < 1 || historyKeep > MAX_HISTORY_KEEP) {
      throw new IllegalArgumentException(
          "hotrank.task.history-keep=" + historyKeep + " must be from 1 to " + MAX_HISTORY_KEEP);
    }
  }
}
