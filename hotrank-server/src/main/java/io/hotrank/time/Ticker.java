package io.hotrank.time;

/**
 * A source of nanoseconds for measuring durations on this machine (timeouts, deadlines, short
 * memories), as {@link System#nanoTime()} gives them: only differences between two readings mean
 * anything. Injected wherever a duration is measured so that tests can move time; wall-clock
 * instants come from an injected {@link java.time.Clock} instead. Implementations are thread-safe.
 */
@FunctionalInterface
public interface Ticker {

  /** The current reading, in nanoseconds. */
  long read();

  /** The JVM's monotonic clock. */
  static Ticker system() {
    return System::nanoTime;
  }
}
