package io.hotrank.lock;

import java.time.Duration;
import java.util.Optional;

/**
 * Where leases live: Redis ({@link RedisLeaseStore}) or the database ({@link JdbcLeaseStore}). Each
 * operation is one round trip and atomic in the store; expiry is measured by the store's clock.
 * Store failures surface as Spring's {@code DataAccessException}; callers decide how to degrade.
 * Thread-safe.
 */
public interface LeaseStore {

  /**
   * How far a cycle may lie ahead of the store's clock. A cycle further ahead comes from an
   * instance whose clock is wrong, and is refused: recorded, it would shut every other instance out
   * of the job until real time caught up.
   */
  java.time.Duration CYCLE_LEAD_LIMIT = java.time.Duration.ofSeconds(60);

  /** {@code redis} or {@code jdbc}, as in configuration. */
  String kind();

  /**
   * Grants the lease if no one holds it, or if only a grant of this very process that it no longer
   * counts on (released or {@linkplain #forget forgotten}) or, for an {@linkplain
   * InstanceId#exclusive() exclusive} instance id, a grant of its earlier, dead process holds it:
   * then with a new, higher fence.
   *
   * @param ttl how long the lease lasts unless renewed; at least a millisecond
   * @param cycle 0, or a positive cycle number (a scheduled fire time in epoch milliseconds): then
   *     the grant is refused also when this or a later cycle was granted before, so that a cycle
   *     runs once even if its instances' clocks and ticks differ a little, and when it lies more
   *     than {@link #CYCLE_LEAD_LIMIT} ahead of the store's clock
   * @return the lease, or empty if it is held (or the cycle was taken)
   */
  Optional<Lease> tryAcquire(String name, Duration ttl, long cycle);

  /** {@link #tryAcquire(String, Duration, long)} outside any cycle. */
  default Optional<Lease> tryAcquire(String name, Duration ttl) {
    return tryAcquire(name, ttl, 0);
  }

  /**
   * Records that the holder runs a cycle under a lease it keeps across cycles (leader mode), unless
   * this or a later cycle was recorded before (by it or an earlier holder) or the cycle lies more
   * than {@link #CYCLE_LEAD_LIMIT} ahead of the store's clock.
   *
   * @return false if refused, or if the lease is no longer this holder's
   */
  boolean claimCycle(Lease lease, long cycle);

  /**
   * Extends the lease to {@code ttl} from now, if it is still this holder's and unexpired.
   *
   * @return false if it expired, was released or is held by someone else
   */
  boolean renew(Lease lease, Duration ttl);

  /**
   * Frees the lease if it is still this holder's; never frees anyone else's.
   *
   * @return false if it was no longer this holder's
   */
  boolean release(Lease lease);

  /**
   * Tells the store that this process no longer counts on a grant it did not release (it was lost):
   * a later acquire of this process may then take the name over at once, with a higher fence,
   * should the store still show that grant.
   */
  default void forget(Lease lease) {}

  /** The store's clock (Redis's {@code TIME}, the database's now), epoch milliseconds. */
  long nowMillis();

  /** What the store knows of the name. */
  LeaseState inspect(String name);

  /** A time to live in milliseconds, as the stores send it; refuses one under a millisecond. */
  static long ttlMillis(Duration ttl) {
    long millis = ttl.toMillis();
    if (millis < 1) {
      throw new IllegalArgumentException("lease time to live " + ttl + " is under a millisecond");
    }
    return millis;
  }
}
