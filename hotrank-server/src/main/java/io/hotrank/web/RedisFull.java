package io.hotrank.web;

import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recognizes Redis refusing a write because it is full ({@code OOM command not allowed when used
 * memory > 'maxmemory'}: the embedded Redis evicts nothing, and neither should a Redis holding
 * leases and boards), and says so in the log, at most once per {@link #WARN_EVERY}: naming the
 * setting to raise, where a bare 500 and a stack trace per request would hide the cause. Such a
 * failure is a storage failure the client may retry, not a bug. Thread-safe.
 */
final class RedisFull {

  static final Duration WARN_EVERY = Duration.ofMinutes(1);

  private static final Logger log = LoggerFactory.getLogger(RedisFull.class);

  private static final long NEVER = Long.MIN_VALUE;

  private final AtomicLong lastWarned = new AtomicLong(NEVER);
  private final Ticker ticker;

  RedisFull(Ticker ticker) {
    this.ticker = ticker;
  }

  /** Whether {@code e}, or one of its causes, is Redis's answer that it is over its maxmemory. */
  static boolean causedBy(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (message != null && message.contains("OOM command not allowed")) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /** Logs a WARN naming the setting, unless one was logged less than {@link #WARN_EVERY} ago. */
  void warn(String path) {
    long now = ticker.read();
    long last = lastWarned.get();
    if ((last == NEVER || now - last >= WARN_EVERY.toNanos())
        && lastWarned.compareAndSet(last, now)) {
      log.warn(
          "Redis is full: it refused a write while serving {} (used memory above its maxmemory;"
              + " it evicts nothing). Such requests answer 503 until memory is freed: raise"
              + " hotrank.embedded.redis-max-memory for the embedded Redis, or the maxmemory of"
              + " the configured Redis. (Logged at most once every {}.)",
          path,
          WARN_EVERY);
    }
  }
}
