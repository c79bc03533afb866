package io.hotrank.board;

import jakarta.annotation.PreDestroy;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Tries again a re-publish that failed after a committed change (an operator's control, a review
 * decision): after 1, 2, 4... seconds, at most 30 s apart, {@value #RETRIES} times in all. The
 * change stays committed meanwhile, and the board's next publish applies it in any case. The
 * retries live in this instance's memory: an instance that stops meanwhile leaves the change to the
 * next publish. Thread-safe.
 */
@Component
public final class RepublishRetries {

  private static final Logger log = LoggerFactory.getLogger(RepublishRetries.class);

  /** How many times a failed re-publish is tried again. */
  public static final int RETRIES = 8;

  private static final long MAX_RETRY_DELAY_SECONDS = 30;

  /**
   * Runs the retries: one daemon thread, idle but for them. A plain scheduled executor rather than
   * a job: a retry belongs to this instance's failed call, not to the cluster's schedule.
   */
  private final ScheduledExecutorService retries =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("board-republish-retries").factory());

  /**
   * Runs {@code attempt} now and, while it answers false (it failed, and logged why), again later.
   * Never throws.
   *
   * @param board the board's name, for the log
   */
  public void run(String board, BooleanSupplier attempt) {
    if (!attempt.getAsBoolean()) {
      retry(board, attempt, 1);
    }
  }

  private void retry(String board, BooleanSupplier attempt, int n) {
    if (n > RETRIES) {
      log.warn(
          "Board '{}': re-publish after a change failed {} times; its next publish applies the"
              + " change",
          board,
          RETRIES + 1);
      return;
    }
    long delaySeconds = Math.min(MAX_RETRY_DELAY_SECONDS, 1L << (n - 1));
    try {
      retries.schedule(
          () -> {
            if (!attempt.getAsBoolean()) {
              retry(board, attempt, n + 1);
            }
          },
          delaySeconds,
          TimeUnit.SECONDS);
    } catch (RejectedExecutionException shuttingDown) {
      log.debug("Board '{}': not retrying the re-publish, shutting down", board);
    }
  }

  @PreDestroy
  void stop() {
    retries.shutdownNow();
  }
}
