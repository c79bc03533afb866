package io.hotrank.lock;

import org.jspecify.annotations.Nullable;

/**
 * What a store knows of a lease name, for operators.
 *
 * @param name the lease's name
 * @param holder the instance holding it, or null if it is free
 * @param fence the newest fencing token granted under the name (0 if never)
 * @param expiresInMillis how long the holder's lease has left by the store's clock (0 if free)
 * @param cycle the newest cycle acquired under the name (0 if none)
 */
public record LeaseState(
    String name, @Nullable String holder, long fence, long expiresInMillis, long cycle) {}
