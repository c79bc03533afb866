/**
 * Reusable parts of multi-level reads: {@link io.hotrank.cache.RedisReadGuard} bounds what a slow
 * or dead Redis costs a reader (timeout and circuit breaker), and {@link
 * io.hotrank.cache.TieredLoader} loads a local miss from remote tiers in order, once per key at a
 * time, remembering keys found nowhere for a moment. {@link io.hotrank.cache.RedisSubscriptions}
 * holds the instance's one Redis Pub/Sub connection, through which every notice channel is listened
 * to. Knows no capability.
 */
@NullMarked
package io.hotrank.cache;

import org.jspecify.annotations.NullMarked;
