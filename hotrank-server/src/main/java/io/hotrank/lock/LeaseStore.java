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

  /** {@code redis} or {@code jdbc}, as in configuration. */
  String kind();

  /**
   * Grants the lease if no one holds it.
   *
   * @param ttl how long the lease lasts unless renewed; at least a millisecond
   * @param cycle 0, or a positive cycle number (a scheduled fire time in epoch milliseconds): then
   *     the grant is refused also when this or a later cycle was granted before, so that a cycle
   *     runs once even if its instances' clocks and ticks differ a little
   * @return the lease, or empty if it is held (or the cycle was taken)
   */
  Optional<Lease> tryAcquire(String name, Duration ttl, long cycle);

  /** {@link #tryAcquire(String, Duration, long)} outside any cycle. */
  default Optional<Lease> tryAcquire(String name, Duration ttl) {
    return tryAcquire(name, ttl, 0);
  }

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

  /** What the store knows of the name. */
  LeaseState inspect(String name);
}
