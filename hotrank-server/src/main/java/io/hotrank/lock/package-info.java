/**
 * Leases: time-bounded ownership of a name across instances, with a fencing token.
 *
 * <p>{@link io.hotrank.lock.LeaseStore#tryAcquire} grants a {@link io.hotrank.lock.Lease} to one
 * caller at a time. Its owner token is random (prefixed by the instance id, for operators), so
 * renewal and release by anyone else are refused. Its fencing token comes from a counter per name
 * that only grows and is taken in the same atomic step as the acquire: a write that carries the
 * token can be refused by the store it writes to once a later holder has written, which is what
 * keeps a stalled former holder from overwriting a newer result. Expiry is decided by the store's
 * clock (Redis's or the database's), never an instance's.
 *
 * <p>{@link io.hotrank.lock.LeaseWatchdog} renews held leases from its own thread and reports a
 * lease lost the moment it can no longer be trusted.
 */
@ApplicationModule(allowedDependencies = {"redis", "storage"})
@NullMarked
package io.hotrank.lock;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
