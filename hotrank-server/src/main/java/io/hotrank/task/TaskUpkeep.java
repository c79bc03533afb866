package io.hotrank.task;

import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * The task platform's housekeeping, on a thread of its own ({@code task-maintenance}): prunes the
 * run history past {@code hotrank.task.history-retention} now and then, and reads every task's
 * consecutive failures into its gauge.
 */
final class TaskUpkeep {

  /** Logged as the engine, the category operators already set levels for. */
  private static final Logger log = LoggerFactory.getLogger(TaskEngine.class);

  /** How often the history is pruned. */
  private static final Duration PRUNE_EVERY = Duration.ofMinutes(10);

  /** How often the failure gauges are read from the database. */
  private static final Duration MAINTAIN_EVERY = Duration.ofSeconds(10);

  private final TaskStore store;
  private final TaskProperties properties;
  private final FailureGauges failures;
  private final Ticker ticker;
  private @Nullable ScheduledExecutorService thread;

  /** Ticker reading at the last pruning; 0 before the first (upkeep thread only). */
  private long lastPrune;

  TaskUpkeep(TaskStore store, TaskProperties properties, FailureGauges failures, Ticker ticker) {
    this.store = store;
    this.properties = properties;
    this.failures = failures;
    this.ticker = ticker;
  }

  void start() {
    ScheduledExecutorService upkeep =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("task-maintenance").daemon(true).factory());
    upkeep.scheduleWithFixedDelay(
        this::maintain, 0, MAINTAIN_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    thread = upkeep;
  }

  void stop() {
    ScheduledExecutorService upkeep = thread;
    if (upkeep != null) {
      upkeep.shutdownNow();
    }
  }

  /** Prunes the history now and then, and reads every task's failures into its gauge. */
  private void maintain() {
    try {
      long nanos = ticker.read();
      if (lastPrune == 0 || nanos - lastPrune > PRUNE_EVERY.toNanos()) {
        lastPrune = nanos;
        int pruned = store.prune(properties.historyRetention().toMillis());
        if (pruned > 0) {
          log.info(
              "Task history: {} run(s) older than {} pruned",
              pruned,
              properties.historyRetention());
        }
      }
      failures.setAll(store.consecutiveFailures());
    } catch (DataAccessException e) {
      log.debug("Task maintenance skipped: {}", e.toString());
    } catch (RuntimeException | Error e) {
      log.error("Task maintenance failed", e);
    }
  }
}
