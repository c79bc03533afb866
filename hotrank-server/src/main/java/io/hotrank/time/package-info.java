/**
 * Where capability code reads time: an injected {@link java.time.Clock} for instants (scores,
 * windows, timestamps) and an injected {@link io.hotrank.time.Ticker} for elapsed time (timeouts,
 * deadlines). No capability calls {@code System.currentTimeMillis()}, {@code System.nanoTime()} or
 * {@code Instant.now()} itself, so tests can move time; where several processes must agree on time,
 * it is taken from Redis or the database instead, and the code says so.
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package io.hotrank.time;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
