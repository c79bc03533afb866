package io.hotrank.cache;

import org.jspecify.annotations.Nullable;

/**
 * What a tier of a {@link TieredCache} holds of a key.
 *
 * @param version the origin's version; 0 for a key the origin never had
 * @param value the value, or null for "absent at this version" (never existed, or deleted)
 * @param <V> the value, immutable
 */
public record Versioned<V>(long version, @Nullable V value) {}
