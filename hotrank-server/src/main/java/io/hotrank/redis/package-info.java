/**
 * The Redis layer every module that talks to Redis builds on: key naming ({@link
 * io.hotrank.redis.HotrankRedisProperties}: one prefix, hash tags that keep a board's or a window's
 * keys in one Cluster slot), Lua scripts loaded once and run by SHA ({@link
 * io.hotrank.redis.LuaScripts}), a guard that bounds what a slow or dead Redis costs a caller
 * (timeout and circuit breaker, {@link io.hotrank.redis.RedisReadGuard}, failing with {@link
 * io.hotrank.redis.RedisUnavailableException}), reconnect notices, the instance's one Pub/Sub
 * connection ({@link io.hotrank.redis.RedisSubscriptions}), pipelined rounds ({@link
 * io.hotrank.redis.RedisRound}: many reads in one round trip, on a Cluster too) and the Redis data
 * structures more than one module uses (a Bloom filter, load leases).
 *
 * <p>Why a module of its own: these parts were half of {@code cache} and were used from seven
 * modules that want Redis, not a tiered cache. Knows no capability.
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package io.hotrank.redis;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
