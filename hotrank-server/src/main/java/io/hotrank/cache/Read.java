package io.hotrank.cache;

import org.jspecify.annotations.Nullable;

/**
 * A {@link TieredCache} read's answer.
 *
 * @param value the value, or null if the key does not exist
 * @param source the tier that answered
 * @param <V> the value, immutable
 */
public record Read<V>(@Nullable V value, ReadSource source) {}
