/**
 * Reusable parts of multi-level reads, on the Redis layer of {@code io.hotrank.redis}: {@link
 * io.hotrank.cache.TieredLoader} loads a local miss from remote tiers in order, once per key at a
 * time, remembering keys found nowhere for a moment. Knows no capability.
 *
 * <p>{@link io.hotrank.cache.TieredCache} is a versioned read-through cache (local, Redis, origin)
 * in Caffeine's shape: callers see the interface, its {@link io.hotrank.cache.TieredCacheBuilder},
 * one interface per tier they supply ({@link io.hotrank.cache.RemoteTier}, {@link
 * io.hotrank.cache.Origin}, {@link io.hotrank.cache.AbsenceFilter}, {@link
 * io.hotrank.cache.LoadLease}) and the values that cross them; the engine behind it ({@code
 * VersionedTieredCache}, its {@code LocalTier}, {@code BatchReader} and metrics) is
 * package-private, so that it can change without its callers.
 */
@ApplicationModule(allowedDependencies = {"redis"})
@NullMarked
package io.hotrank.cache;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
