package io.hotrank.item;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.hotrank.cache.RedisVersionedTier;
import io.hotrank.cache.TieredCache;
import io.hotrank.cache.TieredCacheBuilder;
import io.hotrank.cache.Versioned;
import io.hotrank.hotkey.HotKeys;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.RedisBloomFilter;
import io.hotrank.redis.RedisLoadLeases;
import io.hotrank.redis.RedisReadGuard;
import io.hotrank.redis.RedisRound;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The item caches that {@link ItemReads} reads through and {@link ItemCacheWrites} keeps right: two
 * {@link TieredCache}s, metadata ({@code <prefix>im:<biz>:<id>} in Redis) and counters ({@code
 * <prefix>ic:<biz>:<id>}), over the item and counter stores, with a Bloom filter per biz in front
 * of the metadata's database reads and a cluster-wide load lease per item. Every metadata read is
 * counted for hot-key detection ({@code item:<biz>:<id>}); a key announced hot is pinned in both
 * local caches for its rule's duration, and the pins are ended every {@link #MAINTENANCE}.
 * Thread-safe.
 */
@Component
class ItemCaches {

  private static final Logger log = LoggerFactory.getLogger(ItemCaches.class);

  /** The hot-key prefix of item reads: keys {@code item:<biz>:<id>}. */
  static final String HOT_PREFIX = "item:";

  /** How often pins are ended and failed Redis writes retried. */
  static final Duration MAINTENANCE = Duration.ofMillis(250);

  private final TieredCache<ItemKey, ItemStore.Stored> metadata;
  private final TieredCache<ItemKey, Counters> counts;
  private final RedisBloomFilter filter;
  private final ItemStore store;
  private final CounterStore counters;
  private volatile Runnable retries = () -> {};

  private final ScheduledExecutorService maintenance =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "item-cache");
            thread.setDaemon(true);
            return thread;
          });

  ItemCaches(
      ItemStore store,
      CounterStore counters,
      StringRedisTemplate redis,
      HotrankRedisProperties redisProperties,
      ItemCacheProperties properties,
      RedisReadGuard guard,
      Bulkhead bulkhead,
      Ticker ticker,
      @Qualifier("cacheRefreshes") ExecutorService refreshes,
      MeterRegistry meters,
      HotKeys hotKeys) {
    String prefix = redisProperties.keyPrefix();
    this.store = store;
    this.counters = counters;
    this.filter = new RedisBloomFilter(redis, prefix);
    RedisLoadLeases leases = new RedisLoadLeases(redis, prefix + "load:", properties.leaseTtl());
    RedisRound round = new RedisRound(redis);
    TieredCacheBuilder<ItemKey, ItemStore.Stored> metadataBuilder =
        TieredCache.<ItemKey, ItemStore.Stored>builder("items")
            .fresh(properties.metadataFresh())
            .remote(
                new RedisVersionedTier<>(
                    round,
                    key -> prefix + "im:" + key.biz() + ":" + key.id(),
                    new ItemMetadataCodec()),
                round)
            .origin(this::loadMetadata)
            .absenceFilter(this::certainlyAbsent)
            .loadLease(
                (key, floor) ->
                    leases.tryAcquire("im:" + key.biz() + ":" + key.id() + ":" + floor));
    this.metadata =
        shared(metadataBuilder, properties, guard, bulkhead, ticker, refreshes, meters).build();
    TieredCacheBuilder<ItemKey, Counters> countsBuilder =
        TieredCache.<ItemKey, Counters>builder("item-counts")
            .fresh(properties.countsFresh())
            .remote(
                new RedisVersionedTier<>(
                    round,
                    key -> prefix + "ic:" + key.biz() + ":" + key.id(),
                    new ItemCountsCodec()),
                round)
            .origin(this::loadCounts)
            .loadLease(
                (key, floor) ->
                    leases.tryAcquire("ic:" + key.biz() + ":" + key.id() + ":" + floor));
    this.counts =
        shared(countsBuilder, properties, guard, bulkhead, ticker, refreshes, meters).build();
    metadata.onRead(key -> hotKeys.record(HOT_PREFIX + key.biz() + ":" + key.id()));
    hotKeys.whenHot(HOT_PREFIX, this::pin);
    maintenance.scheduleWithFixedDelay(
        this::maintain, MAINTENANCE.toMillis(), MAINTENANCE.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The settings and parts both caches share. */
  private static <V> TieredCacheBuilder<ItemKey, V> shared(
      TieredCacheBuilder<ItemKey, V> builder,
      ItemCacheProperties p,
      RedisReadGuard guard,
      Bulkhead bulkhead,
      Ticker ticker,
      ExecutorService refreshes,
      MeterRegistry meters) {
    return builder
        .localEntries(p.localEntries())
        .localTtl(p.localTtl())
        .remoteTtl(p.redisTtl())
        .negativeTtl(p.negativeTtl())
        .jitter(p.jitter())
        .leaseWait(p.leaseWait())
        .redisTimeout(p.redisTimeout())
        .redisGuard(guard)
        .originBulkhead(bulkhead)
        .ticker(ticker)
        .background(refreshes)
        .meters(meters);
  }

  /** Item metadata: a deleted item is held as absent at its version. */
  TieredCache<ItemKey, ItemStore.Stored> metadata() {
    return metadata;
  }

  /** Item counters, versioned by the fold that wrote them. */
  TieredCache<ItemKey, Counters> counts() {
    return counts;
  }

  /** The Bloom filter behind the metadata cache. */
  RedisBloomFilter filter() {
    return filter;
  }

  /**
   * Runs {@code retries} on the maintenance thread every {@link #MAINTENANCE}, after the pins are
   * ended: the writes' retries of what Redis did not take.
   */
  void retryEachMaintenance(Runnable retries) {
    this.retries = retries;
  }

  /** Drops this instance's local entries of both caches. */
  void clearLocal() {
    metadata.clearLocal();
    counts.clearLocal();
  }

  /** Ends expired pins and retries what Redis did not take. */
  private void maintain() {
    try {
      metadata.unpinExpired();
      counts.unpinExpired();
      retries.run();
    } catch (RuntimeException e) {
      log.debug("Item cache maintenance failed ({})", e.toString());
    }
  }

  /** Stops the maintenance thread (Spring calls it at shutdown). */
  @PreDestroy
  void close() {
    maintenance.shutdownNow();
  }

  /** A hot item, announced: both caches keep it in memory until {@code until} (ticker nanos). */
  private void pin(String hotKey, long until) {
    int colon = hotKey.lastIndexOf(':');
    if (colon <= HOT_PREFIX.length()) {
      return;
    }
    ItemKey key =
        new ItemKey(
            hotKey.substring(HOT_PREFIX.length(), colon),
            Long.parseLong(hotKey.substring(colon + 1)));
    metadata.pin(key, until);
    counts.pin(key, until);
  }

  /** Items (live or deleted) with their counters, one query per biz. */
  Map<ItemKey, ItemStore.WithCounts> findBoth(List<ItemKey> keys) {
    Map<ItemKey, ItemStore.WithCounts> found = new HashMap<>();
    byBiz(keys)
        .forEach(
            (biz, ids) ->
                store
                    .findWithCounts(biz, ids)
                    .forEach((id, both) -> found.put(new ItemKey(biz, id), both)));
    return found;
  }

  /** The counters of these items as the counts cache keeps them, one query per biz. */
  Map<ItemKey, Versioned<Counters>> loadCounts(List<ItemKey> keys) {
    Map<ItemKey, Versioned<Counters>> loaded = new HashMap<>();
    byBiz(keys)
        .forEach(
            (biz, ids) ->
                counters
                    .findAll(biz, ids)
                    .forEach(
                        (id, counted) -> loaded.put(new ItemKey(biz, id), versioned(counted))));
    return loaded;
  }

  private Map<ItemKey, Versioned<ItemStore.Stored>> loadMetadata(List<ItemKey> keys) {
    Map<ItemKey, Versioned<ItemStore.Stored>> loaded = new HashMap<>();
    byBiz(keys)
        .forEach(
            (biz, ids) ->
                store
                    .findAll(biz, ids)
                    .forEach((id, stored) -> loaded.put(new ItemKey(biz, id), versioned(stored))));
    return loaded;
  }

  /** What the metadata cache keeps of an item: its version, and nothing if deleted. */
  static Versioned<ItemStore.Stored> versioned(ItemStore.Stored stored) {
    return new Versioned<>(stored.version(), stored.deleted() ? null : stored);
  }

  /**
   * What the counts cache keeps of an item: its counters, versioned by the fold that wrote them.
   */
  static Versioned<Counters> versioned(CounterPages.Counted counted) {
    return new Versioned<>(counted.foldNo(), counted.counters());
  }

  /** The part of a round that asks each biz's Bloom filter about its keys. */
  private RedisRound.Part certainlyAbsent(List<ItemKey> keys, Consumer<Set<ItemKey>> into) {
    Set<ItemKey> absent = new HashSet<>();
    List<RedisRound.Part> parts = new ArrayList<>();
    byBiz(keys)
        .forEach(
            (biz, ids) ->
                parts.add(
                    filter.certainlyAbsent(
                        biz, ids, found -> found.forEach(id -> absent.add(new ItemKey(biz, id))))));
    return commands -> {
      List<Runnable> receivers = parts.stream().map(part -> part.send(commands)).toList();
      return () -> {
        receivers.forEach(Runnable::run);
        into.accept(absent);
      };
    };
  }

  private static Map<String, List<Long>> byBiz(List<ItemKey> keys) {
    Map<String, List<Long>> byBiz = new LinkedHashMap<>();
    keys.forEach(key -> byBiz.computeIfAbsent(key.biz(), b -> new ArrayList<>()).add(key.id()));
    return byBiz;
  }
}
