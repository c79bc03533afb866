package io.hotrank.item;

import io.hotrank.cache.CacheNotices;
import io.hotrank.cache.TieredCache;
import io.hotrank.cache.Versioned;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.LuaScripts;
import io.hotrank.redis.RedisBloomFilter;
import io.hotrank.redis.RedisReconnects;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * What item writes and folds go through to keep the {@link ItemCaches} right on every instance:
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
 *       or idle second. A mark in Redis ({@code <prefix>ic-through}) says through which fold every
 *       fold's counters are there, so that the folds a killed process committed but never wrote are
 *       found and rewritten by whichever instance folds next ({@link #countsFolded}).
 *   <li>The Bloom filter per biz learns an id before its item is created; it is rebuilt by a leased
 *       job ({@link ItemFilterJobs}).
 * </ul>
 *
 * What Redis did not take is retried every {@link ItemCaches#MAINTENANCE}. Thread-safe.
 */
@Component
public class ItemCacheWrites {

  private static final Logger log = LoggerFactory.getLogger(ItemCacheWrites.class);

  /** The notice topic of item writes: "{@code <biz> <id> <version>}". */
  static final String TOPIC = "items";

  /** Keys per query or pipeline when rewriting counters. */
  private static final int CHUNK = 500;

  /** How many items whose Redis counters a failed write left stale are remembered at most. */
  private static final int MAX_PENDING = 100_000;

  private final ItemCaches caches;
  private final TieredCache<ItemKey, ItemStore.Stored> metadata;
  private final TieredCache<ItemKey, Counters> counts;
  private final RedisBloomFilter filter;
  private final CacheNotices notices;
  private final StringRedisTemplate redis;
  private final String countsMark;
  private final Set<ItemKey> pendingCounts = ConcurrentHashMap.newKeySet();

  /** Item writes this instance made or heard of, and reconnects (writes it may have missed). */
  private final AtomicLong writesSeen = new AtomicLong();

  /** Writes whose floor or notice did not reach Redis: the newest version of each, retried. */
  private final Map<ItemKey, Long> pendingWrites = new ConcurrentHashMap<>();

  private static final RedisScript<Long> COUNTS_THROUGH =
      LuaScripts.load("counts-through.lua", Long.class);

  ItemCacheWrites(
      ItemCaches caches,
      CacheNotices notices,
      RedisReconnects reconnects,
      StringRedisTemplate redis,
      HotrankRedisProperties redisProperties) {
    this.caches = caches;
    this.redis = redis;
    this.countsMark = redisProperties.keyPrefix() + "ic-through";
    this.metadata = caches.metadata();
    this.counts = caches.counts();
    this.filter = caches.filter();
    this.notices = notices;
    notices.subscribe(TOPIC, this::noticed);
    caches.retryEachMaintenance(this::retryPending);
    reconnects.whenReconnected(
        () -> {
          log.info("Redis reconnected: dropping the local item caches (notices may be lost)");
          forgetLocal();
        });
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
   * every {@link ItemCaches#MAINTENANCE} while Redis does not take them.
   */
  void changed(String biz, long id, long version) {
    writesSeen.incrementAndGet();
    ItemKey key = new ItemKey(biz, id);
    metadata.invalidateLocal(key, version);
    counts.invalidateLocal(key, 0); // replaces an "absent" of an item just created
    if (!announce(key, version)) {
      pendingWrites.merge(key, version, Math::max);
    }
  }

  /** Puts the floors into Redis and the notice on the channel; false if Redis did not take them. */
  private boolean announce(ItemKey key, long version) {
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
          ItemCaches.MAINTENANCE);
      return false;
    }
  }

  /** Retries what Redis did not take: writes' floors and notices, then fold counters. */
  private void retryPending() {
    for (Map.Entry<ItemKey, Long> write : pendingWrites.entrySet()) {
      if (!announce(write.getKey(), write.getValue())) {
        break; // Redis is still away
      }
      pendingWrites.remove(write.getKey(), write.getValue());
    }
    retryCounts();
  }

  private void noticed(String payload) {
    String[] parts = payload.split(" ");
    if (parts.length != 3) {
      return;
    }
    ItemKey key = new ItemKey(parts[0], Long.parseLong(parts[1]));
    metadata.invalidateLocal(key, Long.parseLong(parts[2]));
    counts.invalidateLocal(key, 0);
    writesSeen.incrementAndGet();
  }

  /** See {@link ItemCards#writesSeen}. */
  long writesSeen() {
    return writesSeen.get();
  }

  /**
   * The counters a fold committed, written into Redis (and into this instance's local entries)
   * unless a later fold's are there, and the mark moved to the fold if no earlier fold is missing.
   * A failed write leaves the items to be rewritten from the database by {@link #retryCounts}.
   *
   * @return the mark, when folds between it and {@code foldNo} never had their counters written
   *     (the process that committed them died first, or its write failed): the caller rewrites
   *     their items ({@link #rewriteCounts}) and then moves the mark ({@link #countsCaughtUp});
   *     null when nothing is missing, or when Redis did not take the write
   */
  public @Nullable Long countsFolded(long foldNo, Map<ItemKey, Counters> changed) {
    if (!changed.isEmpty()) {
      Map<ItemKey, Versioned<Counters>> versioned = new HashMap<>();
      changed.forEach((key, value) -> versioned.put(key, new Versioned<>(foldNo, value)));
      // Not through the read guard: a write of thousands of entries may outlast a read's timeout,
      // and must neither be cut short nor count in the read breaker.
      try {
        counts.putAll(versioned);
      } catch (RuntimeException e) {
        log.debug("Counters of fold {} not written to Redis ({}); retried", foldNo, e.toString());
        remember(changed.keySet());
        return null;
      }
    }
    long mark = moveMark(foldNo, "next");
    return mark < 0 ? null : mark;
  }

  /**
   * The fold through which every fold's counters are in Redis, or null when Redis has no mark (it
   * is new or lost its data, and holds no counters either).
   */
  public @Nullable Long countsWrittenThrough() {
    String mark = redis.opsForValue().get(countsMark);
    return mark == null ? null : Long.valueOf(mark);
  }

  /** Every fold's counters up to {@code foldNo} are in Redis: the mark moves up to it. */
  public void countsCaughtUp(long foldNo) {
    moveMark(foldNo, "caught-up");
  }

  /**
   * The mark is ahead of the log's last fold {@code foldNo}: Redis has seen another log (the
   * database was replaced). The mark is set back to it.
   */
  public void countsMarkReset(long foldNo) {
    moveMark(foldNo, "reset");
  }

  private long moveMark(long foldNo, String how) {
    Long mark = redis.execute(COUNTS_THROUGH, List.of(countsMark), Long.toString(foldNo), how);
    return mark == null ? -1 : mark;
  }

  /**
   * Rewrites the Redis counters of {@code keys} from the database, each versioned by the fold that
   * last changed it.
   *
   * @throws RuntimeException when the database or Redis fails; some chunks may be written
   */
  public void rewriteCounts(Collection<ItemKey> keys) {
    List<ItemKey> all = List.copyOf(keys);
    for (int from = 0; from < all.size(); from += CHUNK) {
      counts.putAll(caches.loadCounts(all.subList(from, Math.min(all.size(), from + CHUNK))));
    }
  }

  /** Rewrites counters a failed write left stale in Redis, from the database. */
  void retryCounts() {
    if (pendingCounts.isEmpty()) {
      return;
    }
    List<ItemKey> keys = List.copyOf(pendingCounts);
    for (int from = 0; from < keys.size(); from += CHUNK) {
      List<ItemKey> chunk = keys.subList(from, Math.min(keys.size(), from + CHUNK));
      try {
        rewriteCounts(chunk);
        chunk.forEach(pendingCounts::remove);
      } catch (RuntimeException e) {
        log.debug("Item counters still not rewritten ({})", e.toString());
        return;
      }
    }
    log.info("Rewrote the Redis counters of {} items after a failed write", keys.size());
  }

  private void remember(Collection<ItemKey> keys) {
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
    writesSeen.incrementAndGet();
    caches.clearLocal();
  }
}
