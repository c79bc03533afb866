package io.hotrank.lock;

import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lease this instance holds and the {@link LeaseWatchdog} renews. It is trusted until its local
 * deadline: ttl after the moment the last successful acquire or renewal was <em>sent</em>, measured
 * on this instance's monotonic ticker (never its wall clock), so the local deadline always falls
 * before the store's. Once lost it stays lost: renewal stops, and the listener was told.
 * Thread-safe.
 */
public final class HeldLease {

  private static final Logger log = LoggerFactory.getLogger(HeldLease.class);

  /** Told once, from the watchdog's thread, when a held lease can no longer be trusted. */
  @FunctionalInterface
  public interface LostListener {
    void lost(HeldLease lease, String reason);
  }

  private final LeaseStore store;
  private final Lease lease;
  private final Duration ttl;
  private final Ticker ticker;
  private final LostListener listener;
  private final Runnable onLost;
  private volatile long validUntilNanos;
  private volatile @Nullable String lostReason;
  private volatile boolean released;
  private volatile @Nullable ScheduledFuture<?> renewal;

  HeldLease(
      LeaseStore store,
      Lease lease,
      Duration ttl,
      long sentAtNanos,
      Ticker ticker,
      LostListener listener,
      Runnable onLost) {
    this.store = store;
    this.lease = lease;
    this.ttl = ttl;
    this.ticker = ticker;
    this.listener = listener;
    this.onLost = onLost;
    this.validUntilNanos = sentAtNanos + ttl.toNanos();
  }

  public Lease lease() {
    return lease;
  }

  /** The store the lease lives in. */
  public LeaseStore store() {
    return store;
  }

  /** Whether it can still be trusted: neither lost, nor released, nor past its local deadline. */
  public boolean isValid() {
    return lostReason == null && !released && ticker.read() - validUntilNanos < 0;
  }

  /** Why it was lost, or null while it was not. */
  public @Nullable String lostReason() {
    return lostReason;
  }

  /**
   * Stops renewal for good, then frees the lease in its store if it is still this holder's. A
   * renewal in flight cannot bring it back: both are owner-checked and atomic in the store.
   *
   * @return whether the store freed it (false if it had expired or been taken, or the store failed)
   */
  public boolean release() {
    released = true;
    cancelRenewal();
    try {
      return store.release(lease);
    } catch (RuntimeException e) {
      log.warn("Lease '{}': release failed, it expires by itself: {}", lease.name(), e.toString());
      return false;
    }
  }

  void renewWith(ScheduledFuture<?> renewal) {
    this.renewal = renewal;
  }

  /** One renewal, on the watchdog's thread. */
  void renewOnce() {
    if (released || lostReason != null) {
      cancelRenewal();
      return;
    }
    long sentAt = ticker.read();
    if (sentAt - validUntilNanos >= 0) {
      lose("its time ran out before it was renewed (was this process stalled?)");
      return;
    }
    boolean renewed;
    try {
      renewed = store.renew(lease, ttl);
    } catch (RuntimeException e) {
      lose("renewal failed: " + e);
      return;
    }
    if (released) {
      return;
    }
    if (!renewed) {
      lose("renewal refused: it expired or another instance holds it");
    } else if (ticker.read() - validUntilNanos >= 0) {
      lose("renewal answered after its local deadline, too late to be trusted");
    } else {
      validUntilNanos = sentAt + ttl.toNanos();
    }
  }

  private void lose(String reason) {
    synchronized (this) {
      if (lostReason != null || released) {
        return;
      }
      lostReason = reason;
    }
    cancelRenewal();
    log.warn("Lease '{}' (fence {}) lost: {}", lease.name(), lease.fence(), reason);
    onLost.run();
    try {
      listener.lost(this, reason);
    } catch (RuntimeException e) {
      log.error("Lease '{}': lost-lease listener failed", lease.name(), e);
    }
    // Only once its holder was told: a later acquire of this process may then take the name over.
    store.forget(lease);
  }

  private void cancelRenewal() {
    ScheduledFuture<?> scheduled = renewal;
    if (scheduled != null) {
      scheduled.cancel(false);
    }
  }
}
