package io.hotrank.item;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.hotrank.cache.CacheNotices;
import io.hotrank.cache.HotrankRedisProperties;
import io.hotrank.cache.Read;
import io.hotrank.cache.ReadSource;
import io.hotrank.cache.RedisBloomFilter;
import io.hotrank.cache.RedisLoadLeases;
import io.hotrank.cache.RedisReadGuard;
import io.hotrank.cache.RedisReconnects;
import io.hotrank.cache.RedisRound;
import io.hotrank.cache.RedisVersionedTier;
import io.hotrank.cache.TieredCache;
import io.hotrank.cache.TieredCacheBuilder;
import io.hotrank.cache.Versioned;
import io.hotrank.core.score.Interactions;
import io.hotrank.hotkey.HotKeys;
import io.hotrank.problem.Violations;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Item reads through two {@link TieredCache}s, metadata and counters (local Caffeine, then Redis,
 * then the database), and what keeps them right:
 *
 * <ul>
 *   <li>Writes ({@link ItemService}) commit, then put a floor of the item's new version into Redis
 *       (a delete that no older read can undo), then announce the version to every instance, whose
 *       local entries drop anything older. An instance that reconnects to Redis drops its local
 *       entries: announcements may have been missed.
 *   <li>Counters are written into Redis by the event folder after each fold ({@link
 *       #countsFolded}), versioned by the fold's number, so Redis holds the counts the fold keeps;
 *       local counters are refreshed from there at most {@code counts-fresh} after they were read.
 *       Counters a failed Redis write left behind are rewritten from the database on the next fold
 *       or idle second.
 *   <li>Every read is counted for hot-key detection ({@code item:<biz>:<id>}); a key announced hot
 *       is pinned in both local caches for its rule's duration.
 *   <li>A Bloom filter per biz answers ids that certainly do not exist without the database; it is
 *       updated on create and rebuilt by a leased job ({@link ItemFilterJobs}).
 * </ul>
 *
 * Thread-safe.
 */
@Component
public class ItemReads {

  private static final Logger log = LoggerFactory.getLogger(ItemReads.class);

  /** Most ids a batch read takes. */
  public static final int MAX_BATCH = 100;

  /** The notice topic of item writes: "{@code <biz> <id> <version>}". */
  static final String TOPIC = "items";

  /** The hot-key prefix of item reads: keys {@code item:<biz>:<id>}. */
  static final String HOT_PREFIX = "item:";

  /** How often pins are ended and failed Redis writes retried. */
  private static final Duration MAINTENANCE = Duration.ofMillis(250);

  /** Keys per query or pipeline when rewriting counters. */
  private static final int CHUNK = 500;

  /** How many items whose Redis counters a failed write left stale are remembered at most. */
  private static final int MAX_PENDING = 100_000;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** An item of a biz: the key of both caches. */
  public record Key(String biz, long id) {
    @Override
    public String toString() {
      return biz + "/" + id;
    }
  }

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

  /** What Redis keeps of an item's metadata, as JSON. */
  private record Metadata(
      String biz,
      long id,
      long authorId,
      String title,
      List<String> tags,
      long createdAt,
      long updatedAt,
      long version) {}

  private final TieredCache<Key, ItemStore.Stored> metadata;
  private final TieredCache<Key, Interactions> counts;
  private final RedisBloomFilter filter;
  private final CacheNotices notices;
  private final ItemStore store;
  private final CounterStore counters;
  private final boolean enabled;
  private final Counter uncachedQueries;
  private final Set<Key> pendingCounts = ConcurrentHashMap.newKeySet();

  /** Writes whose floor or notice did not reach Redis: the newest version of each, retried. */
  private final Map<Key, Long> pendingWrites = new ConcurrentHashMap<>();

  private final ScheduledExecutorService maintenance =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "item-cache");
            thread.setDaemon(true);
            return thread;
          });

  ItemReads(
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
      CacheNotices notices,
      RedisReconnects reconnects,
      HotKeys hotKeys) {
    String prefix = redisProperties.keyPrefix();
    this.store = store;
    this.counters = counters;
    this.enabled = properties.enabled();
    this.uncachedQueries = meters.counter("hotrank.cache.origin.queries", "cache", "uncached");
    this.notices = notices;
    this.filter =
        new RedisBloomFilter(
            redis,
            prefix,
            RedisBloomFilter.Shape.of(properties.filterExpected(), properties.filterRate()));
    RedisLoadLeases leases = new RedisLoadLeases(redis, prefix + "load:", properties.leaseTtl());
    RedisRound round = new RedisRound(redis);
    this.metadata =
        shared(
                TieredCache.<Key, ItemStore.Stored>builder("items")
                    .fresh(properties.metadataFresh())
                    .remote(
                        new RedisVersionedTier<>(
                            round,
                            key -> prefix + "im:" + key.biz() + ":" + key.id(),
                            new MetadataCodec()),
                        round)
                    .origin(keys -> loadMetadata(store, keys))
                    .absenceFilter(this::certainlyAbsent)
                    .loadLease(
                        (key, floor) ->
                            leases.tryAcquire("im:" + key.biz() + ":" + key.id() + ":" + floor)),
                properties,
                guard,
                bulkhead,
                ticker,
                refreshes,
                meters)
            .build();
    this.counts =
        shared(
                TieredCache.<Key, Interactions>builder("item-counts")
                    .fresh(properties.countsFresh())
                    .remote(
                        new RedisVersionedTier<>(
                            round,
                            key -> prefix + "ic:" + key.biz() + ":" + key.id(),
                            new CountsCodec()),
                        round)
                    .origin(this::loadCounts)
                    .loadLease(
                        (key, floor) ->
                            leases.tryAcquire("ic:" + key.biz() + ":" + key.id() + ":" + floor)),
                properties,
                guard,
                bulkhead,
                ticker,
                refreshes,
                meters)
            .build();
    notices.subscribe(TOPIC, this::noticed);
    metadata.onRead(key -> hotKeys.record(HOT_PREFIX + key.biz() + ":" + key.id()));
    hotKeys.whenHot(HOT_PREFIX, this::pin);
    maintenance.scheduleWithFixedDelay(
        this::maintain, MAINTENANCE.toMillis(), MAINTENANCE.toMillis(), TimeUnit.MILLISECONDS);
    reconnects.whenReconnected(
        () -> {
          log.info("Redis reconnected: dropping the local item caches (notices may be lost)");
          forgetLocal();
        });
  }

  /** The settings and parts both caches share. */
  private static <V> TieredCacheBuilder<Key, V> shared(
      TieredCacheBuilder<Key, V> builder,
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

  /**
   * A live item.
   *
   * @throws io.hotrank.problem.InvalidRequestException if the biz or id is malformed
   * @throws ItemNotFoundException if absent or deleted
   * @throws io.hotrank.cache.OriginBusyException if it had to come from a busy database
   */
  public Found get(String biz, long id) {
    Violations violations = new Violations();
    ItemService.validateBiz(biz, "biz", violations);
    violations.check(id > 0, "id", "must be a positive integer");
    violations.throwIfAny();
    Key key = new Key(biz, id);
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
    Read<Interactions> count = counts.get(key);
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
    List<Key> keys = ids.stream().distinct().map(id -> new Key(biz, id)).toList();
    if (!enabled) {
      uncachedQueries.increment();
      Map<Key, WithCounts> live = new HashMap<>();
      findBoth(keys)
          .forEach(
              (key, found) -> {
                if (!found.item().deleted() && found.counted() != null) {
                  live.put(key, new WithCounts(found.item(), found.counted().counts()));
                }
              });
      return batch(keys, live, key -> ReadSource.DB, key -> ReadSource.DB);
    }
    TieredCache.Batch<Key, ItemStore.Stored> metaBatch = metadata.batch(keys);
    // Counts are read only of items that may be live: not of those known absent or deleted.
    TieredCache.Batch<Key, Interactions> countBatch =
        counts.batch(keys.stream().filter(key -> mayBeLive(metaBatch, key)).toList());
    metaBatch.readRedis(countBatch);
    List<Key> metaRest = metaBatch.unresolved();
    List<Key> countRest =
        countBatch.unresolved().stream().filter(key -> mayBeLive(metaBatch, key)).toList();
    if (!metaRest.isEmpty() || !countRest.isEmpty()) {
      Set<Key> rest = new LinkedHashSet<>(metaRest);
      rest.addAll(countRest);
      Map<Key, ItemStore.WithCounts> loaded = metadata.askOrigin(() -> findBoth(List.copyOf(rest)));
      Map<Key, Versioned<ItemStore.Stored>> metas = new HashMap<>();
      Map<Key, Versioned<Interactions>> counted = new HashMap<>();
      loaded.forEach(
          (key, found) -> {
            metas.put(key, versioned(found.item()));
            if (found.counted() != null) {
              counted.put(key, versioned(found.counted()));
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
    Map<Key, Read<ItemStore.Stored>> metaReads = metaBatch.answers();
    Map<Key, Read<Interactions>> countReads = countBatch.answers();
    Map<Key, WithCounts> both = new HashMap<>();
    for (Key key : keys) {
      Read<ItemStore.Stored> meta = metaReads.get(key);
      Read<Interactions> count = countReads.get(key);
      if (meta != null && meta.value() != null && count != null && count.value() != null) {
        both.put(key, new WithCounts(meta.value(), count.value()));
      }
    }
    return batch(
        keys,
        both,
        key -> metaReads.get(key).source(),
        key -> {
          Read<Interactions> count = countReads.get(key);
          return count == null ? ReadSource.LOCAL : count.source();
        });
  }

  private static boolean mayBeLive(TieredCache.Batch<Key, ItemStore.Stored> metas, Key key) {
    Read<ItemStore.Stored> meta = metas.answer(key);
    return meta == null || meta.value() != null;
  }

  /** A live item's metadata and counts, read together. */
  private record WithCounts(ItemStore.Stored meta, Interactions counts) {}

  /** The batch answer: the live items found, the others missing; the slowest source used. */
  private static Batch batch(
      List<Key> keys,
      Map<Key, WithCounts> found,
      Function<Key, ReadSource> metaSource,
      Function<Key, ReadSource> countSource) {
    List<Item> items = new ArrayList<>();
    List<Long> missing = new ArrayList<>();
    ReadSource source = ReadSource.LOCAL;
    for (Key key : keys) {
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

  /** Items (live or deleted) with their counters, one query per biz. */
  private Map<Key, ItemStore.WithCounts> findBoth(List<Key> keys) {
    Map<Key, ItemStore.WithCounts> found = new HashMap<>();
    byBiz(keys)
        .forEach(
            (biz, ids) ->
                store
                    .findWithCounts(biz, ids)
                    .forEach((id, both) -> found.put(new Key(biz, id), both)));
    return found;
  }

  /** What the metadata cache keeps of an item: its version, and nothing if deleted. */
  private static Versioned<ItemStore.Stored> versioned(ItemStore.Stored stored) {
    return new Versioned<>(stored.version(), stored.deleted() ? null : stored);
  }

  /**
   * What the counts cache keeps of an item: its counters, versioned by the fold that wrote them.
   */
  private static Versioned<Interactions> versioned(CounterStore.Counted counted) {
    return new Versioned<>(counted.foldNo(), counted.counts());
  }

  /**
   * An item is about to be created: its id goes into the Bloom filter before its row commits, so
   * that no reader can be told "certainly absent" once it exists (a create that then fails leaves a
   * harmless false positive). An add that fails drops the filter or, with Redis away, is found
   * missing by the filter job's count check.
   */
  void admitting(String biz, long id) {
    try {
      filter.add(biz, id);
    } catch (RuntimeException e) {
      log.warn(
          "Item {}/{}: Bloom filter update failed ({}); the filter job rebuilds it", biz, id, e);
    }
  }

  /** An item was created (committed): the "absent" entries caches may hold of it are replaced. */
  void created(String biz, long id) {
    changed(biz, id, 1);
  }

  /**
   * An item's metadata changed (committed) to {@code version}: this instance drops its older
   * entries at once; Redis gets a floor of the version and every instance a notice of it, retried
   * every {@link #MAINTENANCE} while Redis does not take them.
   */
  void changed(String biz, long id, long version) {
    Key key = new Key(biz, id);
    metadata.invalidateLocal(key, version);
    counts.invalidateLocal(key, 0); // replaces an "absent" of an item just created
    if (!announce(key, version)) {
      pendingWrites.merge(key, version, Math::max);
    }
  }

  /** Puts the floors into Redis and the notice on the channel; false if Redis did not take them. */
  private boolean announce(Key key, long version) {
    try {
      metadata.invalidateRemote(key, version);
      counts.invalidateRemote(key, 0);
      notices.publish(TOPIC, key.biz() + " " + key.id() + " " + version);
      return true;
    } catch (RuntimeException e) {
      log.warn(
          "Item {}: version {} not announced through Redis yet ({}); retried every {}",
          key,
          version,
          e.toString(),
          MAINTENANCE);
      return false;
    }
  }

  /** Ends expired pins and retries what Redis did not take. */
  private void maintain() {
    try {
      metadata.unpinExpired();
      counts.unpinExpired();
      for (Map.Entry<Key, Long> write : pendingWrites.entrySet()) {
        if (!announce(write.getKey(), write.getValue())) {
          break; // Redis is still away
        }
        pendingWrites.remove(write.getKey(), write.getValue());
      }
      retryCounts();
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
    Key key =
        new Key(
            hotKey.substring(HOT_PREFIX.length(), colon),
            Long.parseLong(hotKey.substring(colon + 1)));
    metadata.pin(key, until);
    counts.pin(key, until);
  }

  private void noticed(String payload) {
    String[] parts = payload.split(" ");
    if (parts.length != 3) {
      return;
    }
    Key key = new Key(parts[0], Long.parseLong(parts[1]));
    metadata.invalidateLocal(key, Long.parseLong(parts[2]));
    counts.invalidateLocal(key, 0);
  }

  /**
   * The counters a fold committed, written into Redis (and into this instance's local entries)
   * unless a later fold's are there. A failed write leaves the items to be rewritten from the
   * database by {@link #retryCounts}.
   */
  public void countsFolded(long foldNo, Map<Key, Interactions> changed) {
    if (changed.isEmpty()) {
      return;
    }
    Map<Key, Versioned<Interactions>> versioned = new HashMap<>();
    changed.forEach((key, value) -> versioned.put(key, new Versioned<>(foldNo, value)));
    // Not through the read guard: a write of thousands of entries may outlast a read's timeout,
    // and must neither be cut short nor count in the read breaker.
    try {
      counts.putAll(versioned);
    } catch (RuntimeException e) {
      log.debug("Counters of fold {} not written to Redis ({}); retried", foldNo, e.toString());
      remember(changed.keySet());
    }
  }

  /** Rewrites counters a failed write left stale in Redis, from the database. */
  public void retryCounts() {
    if (pendingCounts.isEmpty()) {
      return;
    }
    List<Key> keys = List.copyOf(pendingCounts);
    for (int from = 0; from < keys.size(); from += CHUNK) {
      List<Key> chunk = keys.subList(from, Math.min(keys.size(), from + CHUNK));
      try {
        counts.putAll(loadCounts(chunk));
        chunk.forEach(pendingCounts::remove);
      } catch (RuntimeException e) {
        log.debug("Item counters still not rewritten ({})", e.toString());
        return;
      }
    }
    log.info("Rewrote the Redis counters of {} items after a failed write", keys.size());
  }

  private void remember(Collection<Key> keys) {
    if (pendingCounts.size() + keys.size() > MAX_PENDING) {
      log.warn(
          "More than {} items' Redis counters are stale after failed writes; the rest are"
              + " served from Redis until their entries expire",
          MAX_PENDING);
      return;
    }
    pendingCounts.addAll(keys);
  }

  /**
   * Drops this instance's local entries: for when the item tables were changed outside hotrank (a
   * restore, a test that empties them). Redis's entries ({@code <prefix>im:*}, {@code ic:*}) must
   * then be deleted too, since the restored rows may carry versions lower than the cached ones.
   */
  public void forgetLocal() {
    metadata.clearLocal();
    counts.clearLocal();
  }

  /** The Bloom filter behind the metadata cache, for its rebuild job. */
  RedisBloomFilter filter() {
    return filter;
  }

  TieredCache<Key, ItemStore.Stored> metadata() {
    return metadata;
  }

  /** The part of a round that asks each biz's Bloom filter about its keys. */
  private RedisRound.Part certainlyAbsent(List<Key> keys, Consumer<Set<Key>> into) {
    Set<Key> absent = new HashSet<>();
    List<RedisRound.Part> parts = new ArrayList<>();
    byBiz(keys)
        .forEach(
            (biz, ids) ->
                parts.add(
                    filter.certainlyAbsent(
                        biz, ids, found -> found.forEach(id -> absent.add(new Key(biz, id))))));
    return commands -> {
      List<Runnable> receivers = parts.stream().map(part -> part.send(commands)).toList();
      return () -> {
        receivers.forEach(Runnable::run);
        into.accept(absent);
      };
    };
  }

  private static Map<Key, Versioned<ItemStore.Stored>> loadMetadata(
      ItemStore store, List<Key> keys) {
    Map<Key, Versioned<ItemStore.Stored>> loaded = new HashMap<>();
    byBiz(keys)
        .forEach(
            (biz, ids) ->
                store
                    .findAll(biz, ids)
                    .forEach((id, stored) -> loaded.put(new Key(biz, id), versioned(stored))));
    return loaded;
  }

  private Map<Key, Versioned<Interactions>> loadCounts(List<Key> keys) {
    Map<Key, Versioned<Interactions>> loaded = new HashMap<>();
    byBiz(keys)
        .forEach(
            (biz, ids) ->
                counters
                    .findAll(biz, ids)
                    .forEach((id, counted) -> loaded.put(new Key(biz, id), versioned(counted))));
    return loaded;
  }

  private static Map<String, List<Long>> byBiz(List<Key> keys) {
    Map<String, List<Long>> byBiz = new LinkedHashMap<>();
    keys.forEach(key -> byBiz.computeIfAbsent(key.biz(), b -> new ArrayList<>()).add(key.id()));
    return byBiz;
  }

  private static Item item(ItemStore.Stored meta, Interactions counts) {
    return new Item(
        meta.biz(),
        meta.id(),
        meta.authorId(),
        meta.title(),
        meta.tags(),
        meta.createdAt(),
        meta.updatedAt(),
        Item.Counts.of(counts));
  }

  private static ReadSource slower(ReadSource a, ReadSource b) {
    return a.ordinal() >= b.ordinal() ? a : b;
  }

  /** Metadata as JSON. */
  private static final class MetadataCodec implements RedisVersionedTier.Codec<ItemStore.Stored> {
    @Override
    public String encode(ItemStore.Stored s) {
      return JSON.writeValueAsString(
          new Metadata(
              s.biz(),
              s.id(),
              s.authorId(),
              s.title(),
              s.tags(),
              s.createdAt().toEpochMilli(),
              s.updatedAt().toEpochMilli(),
              s.version()));
    }

    @Override
    public ItemStore.Stored decode(String text) {
      Metadata m = JSON.readValue(text, Metadata.class);
      return new ItemStore.Stored(
          m.biz(),
          m.id(),
          m.authorId(),
          m.title(),
          List.copyOf(m.tags()),
          Instant.ofEpochMilli(m.createdAt()),
          Instant.ofEpochMilli(m.updatedAt()),
          m.version(),
          false);
    }
  }

  /** Counters as six comma-separated numbers, in the order of {@link Interactions}. */
  private static final class CountsCodec implements RedisVersionedTier.Codec<Interactions> {
    @Override
    public String encode(Interactions c) {
      return c.like()
          + ","
          + c.view()
          + ","
          + c.comment()
          + ","
          + c.share()
          + ","
          + c.collect()
          + ","
          + c.dislike();
    }

    @Override
    public Interactions decode(String text) {
      String[] n = text.split(",");
      return new Interactions(
          Long.parseLong(n[0]),
          Long.parseLong(n[1]),
          Long.parseLong(n[2]),
          Long.parseLong(n[3]),
          Long.parseLong(n[4]),
          Long.parseLong(n[5]));
    }
  }
}
