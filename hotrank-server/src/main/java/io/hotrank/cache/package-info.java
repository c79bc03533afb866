/**
 * Reusable parts of multi-level reads: {@link io.hotrank.cache.RedisReadGuard} bounds what a slow
 * or dead Redis costs a reader (timeout and circuit breaker), and {@link
 * io.hotrank.cache.TieredLoader} loads a local miss from remote tiers in order, once per key at a
 * time, remembering keys found nowhere for a moment. Knows no capability.
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package io.hotrank.cache;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
