package io.hotrank.support;

import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link Ticker} that tests move by hand. Thread-safe. */
public final class MutableTicker implements Ticker {

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  @Override
  public long read() {
    return nanos.get();
  }

  /** Moves the ticker forward. */
  public void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }
}
