/**
 * Content items and their interaction counters: the {@code /api/v1/items} endpoints, validation of
 * item fields (including the {@code biz} name rule other capabilities reuse), the registry of known
 * bizes ({@link io.hotrank.item.Bizes}: configured or created through {@code /api/v1/admin/bizes},
 * in {@code hr_biz}) that every write and read naming a biz asks, and the stores of {@code hr_item}
 * with {@code hr_id_sequence} ({@link io.hotrank.item.ItemStore}) and {@code hr_item_counter}
 * ({@link io.hotrank.item.CounterStore}, which also serves the ranking scan). Reads go through the
 * item caches ({@code ItemCaches}: metadata and counters, each a {@link
 * io.hotrank.cache.TieredCache}) by {@link io.hotrank.item.ItemReads}; writes and folds keep those
 * caches right on every instance through {@link io.hotrank.item.ItemCacheWrites} (floors, notices,
 * counters, the Bloom filter). Depends on no other capability.
 */
@ApplicationModule(
    allowedDependencies = {"audit", "cache", "hotkey", "job", "redis", "storage", "web"})
@NullMarked
package io.hotrank.item;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
