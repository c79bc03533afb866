package io.hotrank.limit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.hotrank.limit.GcraLimiter.Decision;
import io.hotrank.limit.GcraLimiter.Policy;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The same algorithm as {@code gcra.lua}, in this instance's memory, for while Redis does not
 * answer: each instance then enforces its own share of a quota. Written here rather than taken from
 * a library because it must give the same answers as the script, field for field. Entries expire
 * once idle for the longest window (an idle key holds a full quota, as a missing one does), and at
 * most {@code maxClients} are kept. Thread-safe.
 */
final class LocalGcra {

  private final Cache<String, Long> arrivals;
  private final LongSupplier nanoTime;

  LocalGcra(Duration longestWindow, long maxClients, LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    this.arrivals =
        Caffeine.newBuilder()
            .expireAfterAccess(longestWindow)
            .maximumSize(maxClients)
            .ticker(nanoTime::getAsLong)
            .build();
  }

  /** Decides one request of {@code client} under {@code policy}. */
  Decision decide(Policy policy, String client) {
    // Whole microseconds, as the script: interval rounded down, bursts up to quota x interval.
    long now = nanoTime.getAsLong() / 1000;
    long interval = policy.window().toMillis() * 1000 / policy.quota();
    long burst = policy.quota() * interval;
    Decision[] decision = new Decision[1];
    arrivals
        .asMap()
        .compute(
            policy.name() + ":" + client,
            (key, stored) -> {
              long tat = stored == null || stored < now ? now : stored;
              long next = tat + interval;
              if (next - now > burst) {
                decision[0] =
                    new Decision(
                        false,
                        Math.max(0, (burst - (tat - now)) / interval),
                        ceilMillis(Math.max(1000, next - burst - now)),
                        ceilMillis(tat - now));
                return stored;
              }
              decision[0] =
                  new Decision(
                      true,
                      (burst - (next - now)) / interval,
                      Duration.ZERO,
                      ceilMillis(next - now));
              return next;
            });
    return decision[0];
  }

  private static Duration ceilMillis(long micros) {
    return Duration.ofMillis((micros + 999) / 1000);
  }
}
