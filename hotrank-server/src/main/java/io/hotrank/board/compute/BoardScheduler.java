package io.hotrank.board.compute;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.ComputationAbandonedException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.support.CronTrigger;
import org.springframework.stereotype.Component;

/**
 * Triggers each board on its cron (evaluated in UTC). On shutdown it stops triggering first, gives
 * running computations {@code hotrank.board.shutdown-grace} to finish, then makes them abandon
 * before publishing, so the process exits promptly and never publishes half a run. {@code
 * hotrank.board.scheduling=false} turns triggering off (recompute over HTTP still works).
 */
@Component
class BoardScheduler implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(BoardScheduler.class);

  /**
   * How long shutdown waits for abandoning computations to reach their next scan page: longer than
   * the 10 s statement timeout ({@code spring.jdbc.template.query-timeout}), so a page query in
   * flight ends before the beans it uses are destroyed.
   */
  private static final Duration ABANDON_WAIT = Duration.ofSeconds(12);

  private static final Duration POLL = Duration.ofMillis(50);

  private final BoardRegistry registry;
  private final BoardRecomputer recomputer;
  private final boolean enabled;
  private final Duration grace;
  private final List<ScheduledFuture<?>> triggers = new ArrayList<>();
  private @Nullable ThreadPoolTaskScheduler scheduler;
  private volatile boolean running;

  BoardScheduler(BoardRegistry registry, BoardRecomputer recomputer, BoardProperties properties) {
    this.registry = registry;
    this.recomputer = recomputer;
    this.enabled = properties.scheduling();
    this.grace = properties.shutdownGrace();
  }

  @Override
  public synchronized void start() {
    running = true;
    if (!enabled) {
      log.info("Board scheduling is off (hotrank.board.scheduling=false)");
      return;
    }
    scheduler = new ThreadPoolTaskScheduler();
    scheduler.setPoolSize(Math.max(1, Math.min(2, registry.all().size())));
    scheduler.setThreadNamePrefix("board-cron-");
    scheduler.setErrorHandler(e -> log.error("Scheduled board computation failed", e));
    scheduler.initialize();
    for (BoardDefinition board : registry.all()) {
      triggers.add(
          scheduler.schedule(
              () -> runScheduled(board), new CronTrigger(board.refresh(), ZoneOffset.UTC)));
    }
    log.info("Scheduled {} board(s)", triggers.size());
  }

  private void runScheduled(BoardDefinition board) {
    try {
      recomputer.recomputeIfIdle(board);
    } catch (ComputationAbandonedException e) {
      log.info("{}", e.getMessage());
    } catch (RuntimeException e) {
      log.error(
          "Board '{}': scheduled computation failed; the previous version stays served",
          board.name(),
          e);
    }
  }

  @Override
  public synchronized void stop() {
    triggers.forEach(t -> t.cancel(false));
    triggers.clear();
    waitWhileRunning(grace);
    if (recomputer.anyRunning()) {
      log.warn("Board computation still running after {}; abandoning it", grace);
    }
    recomputer.abandonRunning();
    // An abandoning computation stops at its next scan page; wait for it (bounded), so that none
    // still runs while the beans it uses are destroyed.
    waitWhileRunning(ABANDON_WAIT);
    if (recomputer.anyRunning()) {
      log.warn("Board computation still running {} after it was told to abandon", ABANDON_WAIT);
    }
    if (scheduler != null) {
      scheduler.setWaitForTasksToCompleteOnShutdown(true);
      scheduler.setAwaitTerminationSeconds(2);
      scheduler.shutdown();
    }
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /**
   * Waits, at most {@code limit}, while a computation runs. Bounded by a count of real sleeps, not
   * by a clock reading, so a test's settable clock can never make shutdown wait forever.
   */
  private void waitWhileRunning(Duration limit) {
    for (long polls = limit.toMillis() / POLL.toMillis();
        polls > 0 && recomputer.anyRunning();
        polls--) {
      sleepBriefly();
    }
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
