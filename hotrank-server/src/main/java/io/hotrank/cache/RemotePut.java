package io.hotrank.cache;

import java.time.Duration;

/**
 * A write into the {@link RemoteTier}: the entry replaces the key's unless the tier holds a higher
 * version of it.
 *
 * @param ttl how long the entry lives there
 */
public record RemotePut<K, V>(K key, Versioned<V> entry, Duration ttl) {}
