package io.hotrank.lock;

import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Acquires leases and keeps them: each held lease is renewed every third of its time to live from a
 * dedicated platform thread per store ({@code lease-watchdog-redis}, {@code lease-watchdog-jdbc}),
 * never a job's or a request's, so a busy job cannot starve its own renewal and a store that hangs
 * delays no renewal in the other. A renewal that fails, is refused, or answers after the lease's
 * local deadline marks the lease lost at once (see {@link HeldLease}) and counts it in {@code
 * hotrank.lease.lost}.
 */
public final class LeaseWatchdog implements AutoCloseable {

  private final Ticker ticker;
  private final MeterRegistry meters;
  private final Map<String, ScheduledExecutorService> renewers = new ConcurrentHashMap<>();

  public LeaseWatchdog(Ticker ticker, MeterRegistry meters) {
    this.ticker = ticker;
    this.meters = meters;
  }

  /**
   * Tries to acquire a lease and, if granted, keeps renewing it until it is released or lost.
   *
   * @param cycle as in {@link LeaseStore#tryAcquire(String, Duration, long)}
   * @param listener told, once, if the lease is lost while held
   * @return the held lease, or empty if someone else holds it (or the grant came back after its
   *     time to live, too late to be trusted; it is then released)
   * @throws org.springframework.dao.DataAccessException if the store fails
   */
  public Optional<HeldLease> acquire(
      LeaseStore store, String name, Duration ttl, long cycle, HeldLease.LostListener listener) {
    long sentAt = ticker.read();
    return store
        .tryAcquire(name, ttl, cycle)
        .filter(lease -> answeredInTime(store, lease, sentAt, ttl))
        .map(
            lease -> {
              HeldLease held =
                  new HeldLease(
                      store,
                      lease,
                      ttl,
                      sentAt,
                      ticker,
                      listener,
                      () ->
                          meters
                              .counter("hotrank.lease.lost", "name", name, "store", store.kind())
                              .increment());
              long period = Math.max(1, ttl.toNanos() / 3);
              // The first renewal comes a third of the time to live after the acquire was sent,
              // not after its answer arrived.
              long first = Math.max(0, period - (ticker.read() - sentAt));
              held.renewWith(
                  renewer(store)
                      .scheduleAtFixedRate(held::renewOnce, first, period, TimeUnit.NANOSECONDS));
              return held;
            });
  }

  private boolean answeredInTime(LeaseStore store, Lease lease, long sentAt, Duration ttl) {
    if (ticker.read() - sentAt < ttl.toNanos()) {
      return true;
    }
    try {
      store.release(lease);
    } catch (RuntimeException e) {
      // it expires by itself
    }
    return false;
  }

  private ScheduledExecutorService renewer(LeaseStore store) {
    return renewers.computeIfAbsent(
        store.kind(),
        kind ->
            Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("lease-watchdog-" + kind).daemon(true).factory()));
  }

  @Override
  public void close() {
    renewers.values().forEach(ScheduledExecutorService::shutdownNow);
  }
}
