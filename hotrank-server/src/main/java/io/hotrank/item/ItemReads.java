package io.hotrank.item;

import io.hotrank.cache.Read;
import io.hotrank.cache.ReadSource;
import io.hotrank.cache.TieredCache;
import io.hotrank.cache.Versioned;
import io.hotrank.problem.Violations;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.springframework.stereotype.Component;

/**
 * Item reads, one or a batch, through the {@link ItemCaches} (local Caffeine, then Redis, then the
 * database): an item is its metadata and its counters, cached apart. What keeps the caches right is
 * {@link ItemCacheWrites}. With {@code hotrank.items.cache.enabled=false}, every read is one
 * database query. Thread-safe.
 */
@Component
public class ItemReads {

  /** Most ids a batch read takes. */
  public static final int MAX_BATCH = 100;

  /** An item and the slowest tier that supplied a part of it. */
  public record Found(Item item, ReadSource source) {}

  /**
   * A batch read's answer.
   *
   * @param items the live items found, in the order asked
   * @param missing the ids asked that are absent or deleted, in the order asked
   * @param source the slowest tier that supplied a part of the answer
   */
  public record Batch(List<Item> items, List<Long> missing, ReadSource source) {}

  /** A live item's metadata and counts, read together. */
  private record WithCounts(ItemStore.Stored meta, Counters counts) {}

  private final ItemCaches caches;
  private final Bizes bizes;
  private final TieredCache<ItemKey, ItemStore.Stored> metadata;
  private final TieredCache<ItemKey, Counters> counts;
  private final boolean enabled;
  private final Counter uncachedQueries;

  ItemReads(ItemCaches caches, ItemCacheProperties properties, MeterRegistry meters, Bizes bizes) {
    this.caches = caches;
    this.bizes = bizes;
    this.metadata = caches.metadata();
    this.counts = caches.counts();
    this.enabled = properties.enabled();
    this.uncachedQueries = meters.counter("hotrank.cache.origin.queries", "cache", "uncached");
  }

  /**
   * A live item.
   *
   * @throws io.hotrank.problem.InvalidRequestException if the biz or id is malformed
   * @throws UnknownBizException (404) if the biz is not known
   * @throws ItemNotFoundException if absent or deleted
   * @throws io.hotrank.cache.OriginBusyException if it had to come from a busy database
   */
  public Found get(String biz, long id) {
    Violations violations = new Violations();
    ItemService.validateBiz(biz, "biz", violations);
    ItemService.validateId(id, "id", violations);
    violations.throwIfAny();
    bizes.requireReadable(biz, "biz");
    ItemKey key = new ItemKey(biz, id);
    if (!enabled) {
      Batch batch = getAll(biz, List.of(id));
      if (batch.items().isEmpty()) {
        throw new ItemNotFoundException(biz, id, null);
      }
      return new Found(batch.items().getFirst(), ReadSource.DB);
    }
    Read<ItemStore.Stored> meta = metadata.get(key);
    if (meta.value() == null) {
      throw new ItemNotFoundException(biz, id, null);
    }
    Read<Counters> count = counts.get(key);
    if (count.value() == null) {
      throw new ItemNotFoundException(biz, id, null); // deleted between the two reads
    }
    return new Found(item(meta.value(), count.value()), slower(meta.source(), count.source()));
  }

  /**
   * Live items of one biz: what is not held locally comes from one Redis round trip (metadata,
   * counts and the Bloom filter together), and what Redis lacks from one database query (items
   * joined with their counters).
   *
   * @throws io.hotrank.cache.OriginBusyException if some had to come from a busy database
   */
  public Batch getAll(String biz, List<Long> ids) {
    List<ItemKey> keys = ids.stream().distinct().map(id -> new ItemKey(biz, id)).toList();
    if (!enabled) {
      uncachedQueries.increment();
      Map<ItemKey, WithCounts> live = new HashMap<>();
      caches
          .findBoth(keys)
          .forEach(
              (key, found) -> {
                if (!found.item().deleted() && found.counted() != null) {
                  live.put(key, new WithCounts(found.item(), found.counted().counters()));
                }
              });
      return batch(keys, live, key -> ReadSource.DB, key -> ReadSource.DB);
    }
    TieredCache.Batch<ItemKey, ItemStore.Stored> metaBatch = metadata.batch(keys);
    // Counts are read only of items that may be live: not of those known absent or deleted.
    TieredCache.Batch<ItemKey, Counters> countBatch =
        counts.batch(keys.stream().filter(key -> mayBeLive(metaBatch, key)).toList());
    metaBatch.readRedis(countBatch);
    List<ItemKey> metaRest = metaBatch.unresolved();
    List<ItemKey> countRest =
        countBatch.unresolved().stream().filter(key -> mayBeLive(metaBatch, key)).toList();
    if (!metaRest.isEmpty() || !countRest.isEmpty()) {
      Set<ItemKey> rest = new LinkedHashSet<>(metaRest);
      rest.addAll(countRest);
      Map<ItemKey, ItemStore.WithCounts> loaded =
          metadata.askOrigin(() -> caches.findBoth(List.copyOf(rest)));
      Map<ItemKey, Versioned<ItemStore.Stored>> metas = new HashMap<>();
      Map<ItemKey, Versioned<Counters>> counted = new HashMap<>();
      loaded.forEach(
          (key, found) -> {
            metas.put(key, ItemCaches.versioned(found.item()));
            if (found.counted() != null) {
              counted.put(key, ItemCaches.versioned(found.counted()));
            }
          });
      metaBatch.resolve(metas, metaRest);
      // Counts are resolved only of items the query found live: an "absent" of the counts of an
      // item not created yet (version 0) would stand level with the floor its create puts.
      countBatch.resolve(
          counted,
          countRest.stream()
              .filter(key -> loaded.containsKey(key) && !loaded.get(key).item().deleted())
              .toList());
    }
    Map<ItemKey, Read<ItemStore.Stored>> metaReads = metaBatch.answers();
    Map<ItemKey, Read<Counters>> countReads = countBatch.answers();
    Map<ItemKey, WithCounts> both = new HashMap<>();
    for (ItemKey key : keys) {
      Read<ItemStore.Stored> meta = metaReads.get(key);
      Read<Counters> count = countReads.get(key);
      if (meta != null && meta.value() != null && count != null && count.value() != null) {
        both.put(key, new WithCounts(meta.value(), count.value()));
      }
    }
    return batch(
        keys,
        both,
        key -> metaReads.get(key).source(),
        key -> {
          Read<Counters> count = countReads.get(key);
          return count == null ? ReadSource.LOCAL : count.source();
        });
  }

  private static boolean mayBeLive(
      TieredCache.Batch<ItemKey, ItemStore.Stored> metas, ItemKey key) {
    Read<ItemStore.Stored> meta = metas.answer(key);
    return meta == null || meta.value() != null;
  }

  /** The batch answer: the live items found, the others missing; the slowest source used. */
  private static Batch batch(
      List<ItemKey> keys,
      Map<ItemKey, WithCounts> found,
      Function<ItemKey, ReadSource> metaSource,
      Function<ItemKey, ReadSource> countSource) {
    List<Item> items = new ArrayList<>();
    List<Long> missing = new ArrayList<>();
    ReadSource source = ReadSource.LOCAL;
    for (ItemKey key : keys) {
      source = slower(source, metaSource.apply(key));
      WithCounts both = found.get(key);
      if (both == null) {
        missing.add(key.id());
      } else {
        source = slower(source, countSource.apply(key));
        items.add(item(both.meta(), both.counts()));
      }
    }
    return new Batch(items, missing, source);
  }

  private static Item item(ItemStore.Stored meta, Counters counts) {
    return new Item(
        meta.biz(),
        meta.id(),
        meta.authorId(),
        meta.title(),
        meta.tags(),
        meta.attributes(),
        meta.createdAt(),
        meta.updatedAt(),
        Item.Counts.of(counts.raw()),
        Item.TrustedCounts.of(counts.trusted()));
  }

  private static ReadSource slower(ReadSource a, ReadSource b) {
    return a.ordinal() >= b.ordinal() ? a : b;
  }
}
