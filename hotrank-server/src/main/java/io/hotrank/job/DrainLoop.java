package io.hotrank.job;

import io.hotrank.time.Ticker;
import java.time.Duration;

/**
 * The loop of the jobs fired every second that {@link Job#lingers() linger} to work through a queue
 * (fold the event log, fan out created items): step after step until just before the next second's
 * run, and how long that is ({@link #RUN_FOR}), which the other lingering jobs keep to as well.
 */
public final class DrainLoop {

  /**
   * How long a lingering run goes on: most of the second its cron fired in, so that the next
   * second's fire starts the next run (under its own lease check).
   */
  public static final Duration RUN_FOR = Duration.ofMillis(900);

  /** What one step of work found. */
  public enum Step {
    /** Nothing was waiting. */
    IDLE,
    /** It did what was waiting. */
    DONE,
    /** It did a part; more is waiting. */
    MORE
  }

  /** One step of work. */
  @FunctionalInterface
  public interface Work {
    Step step() throws InterruptedException;
  }

  private DrainLoop() {}

  /**
   * Runs {@code work} step after step for {@link #RUN_FOR}: the next step at once while more is
   * waiting, else after {@code pause}, until a pause would run past the end or the run is
   * cancelled.
   *
   * @return whether some step found nothing waiting (the queue was caught up)
   */
  public static boolean run(JobContext context, Ticker ticker, Duration pause, Work work)
      throws InterruptedException {
    long end = ticker.read() + RUN_FOR.toNanos();
    long wait = pause.toNanos();
    boolean idle = false;
    while (!context.cancelled()) {
      Step step = work.step();
      idle |= step == Step.IDLE;
      if (step == Step.MORE) {
        continue;
      }
      if (ticker.read() + wait > end) {
        break;
      }
      Thread.sleep(Duration.ofNanos(wait));
    }
    return idle;
  }
}
