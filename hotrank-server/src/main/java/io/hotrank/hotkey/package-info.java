/**
 * Hot-key detection, after JD's HotKey but on Redis alone: each instance counts its reads per key
 * in a sliding window of short slices ({@link io.hotrank.hotkey.HotKeyCounter}), pushes each
 * finished slice's top keys to Redis pre-aggregated, and one instance at a time (the leased job
 * {@code hotkey-detect}) sums the cluster's slices, applies the configured rules and announces the
 * keys it finds hot to every instance, which pin them in their local caches for the rule's duration
 * ({@link io.hotrank.hotkey.HotKeys}). Knows no capability: item and board reads report their keys
 * and subscribe to the announcements by key prefix.
 */
@ApplicationModule(allowedDependencies = {"cache", "job", "lock", "redis"})
@NullMarked
package io.hotrank.hotkey;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
