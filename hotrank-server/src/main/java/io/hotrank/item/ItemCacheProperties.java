package io.hotrank.item;

import io.hotrank.redis.RedisBloomFilter;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The item read cache, under {@code hotrank.items.cache.*}. Item metadata (author, title, tags) and
 * counters are cached apart: metadata changes on edits, which every instance hears of at once;
 * counters on every fold of the event log.
 *
 * @param localEntries items each of the two local caches holds at most (W-TinyLFU eviction)
 * @param metadataFresh how long a local metadata entry is served before a read refreshes it in the
 *     background (edits reach every instance by notice anyway; this bounds a missed notice)
 * @param countsFresh the same for counters: counts shown are at most this much older than what the
 *     fold last wrote
 * @param localTtl how long a local entry is kept at most
 * @param redisTtl how long an entry lives in Redis
 * @param negativeTtl how long an id found absent is remembered as absent
 * @param jitter every time to live is lengthened by a random share of itself up to this
 * @param leaseTtl how long the cluster-wide lease on loading one item lasts
 * @param leaseWait how long a read that finds another instance loading its item waits for it before
 *     asking the database itself
 * @param filterMinCapacity the fewest ids a biz's Bloom filter is sized for: each biz's filter is
 *     sized for its count of ids rounded up to a power of two, at least this many, and rebuilt at
 *     the next size once the count passes it
 * @param filterMaxCapacity the most ids a biz's Bloom filter is sized for (a biz with more has a
 *     filter of this size, whose false-positive rate rises above {@code filter-rate})
 * @param filterRate the Bloom filter's false-positive rate at its capacity
 * @param filterCheck how often the leased job checks that every known biz has a filter of the size
 *     its count of ids calls for, building the missing and outgrown ones (a Spring cron)
 * @param redisTimeout how long an item read waits for Redis before it goes to the database instead
 *     (longer than {@code hotrank.redis.read-timeout}, which guards reads whose fallback is memory:
 *     a busy host's slow Redis answer still beats a database query)
 * @param enabled false reads every item from the database, for comparison (the benchmark's "caching
 *     off")
 */
@ConfigurationProperties("hotrank.items.cache")
public record ItemCacheProperties(
    @DefaultValue("100000") long localEntries,
    @DefaultValue("30s") Duration metadataFresh,
    @DefaultValue("1s") Duration countsFresh,
    @DefaultValue("10m") Duration localTtl,
    @DefaultValue("1h") Duration redisTtl,
    @DefaultValue("10s") Duration negativeTtl,
    @DefaultValue("0.2") double jitter,
    @DefaultValue("2s") Duration leaseTtl,
    @DefaultValue("300ms") Duration leaseWait,
    @DefaultValue("1024") long filterMinCapacity,
    @DefaultValue("16777216") long filterMaxCapacity,
    @DefaultValue("0.01") double filterRate,
    @DefaultValue("*/30 * * * * *") String filterCheck,
    @DefaultValue("250ms") Duration redisTimeout,
    @DefaultValue("true") boolean enabled) {

  public ItemCacheProperties {
    String p = "hotrank.items.cache.";
    require(localEntries >= 1, p + "local-entries must be at least 1");
    for (Duration d :
        new Duration[] {metadataFresh, countsFresh, localTtl, redisTtl, negativeTtl}) {
      require(!d.isNegative() && !d.isZero(), p + "durations must be positive, got " + d);
    }
    require(jitter >= 0 && jitter <= 1, p + "jitter=" + jitter + " must be 0 to 1");
    require(leaseTtl.toMillis() >= 1, p + "lease-ttl must be at least 1ms");
    require(redisTimeout.toMillis() >= 1, p + "redis-timeout must be at least 1ms");
    require(!leaseWait.isNegative(), p + "lease-wait must not be negative");
    require(filterMinCapacity >= 1, p + "filter-min-capacity must be at least 1");
    require(
        filterMaxCapacity >= filterMinCapacity,
        p + "filter-max-capacity must be at least filter-min-capacity");
    require(
        filterRate > 0 && filterRate < 1, p + "filter-rate=" + filterRate + " must be in (0, 1)");
    long bits = RedisBloomFilter.Shape.bitsFor(filterMaxCapacity, filterRate);
    require(
        bits <= RedisBloomFilter.MAX_BITS,
        p
            + "filter-max-capacity="
            + filterMaxCapacity
            + " at filter-rate="
            + filterRate
            + " needs "
            + bits
            + " bits, more than a Redis string's 2^32");
  }

  /**
   * The shape of the Bloom filter of a biz with this many ids: sized for the count rounded up to a
   * power of two, within {@code filter-min-capacity} and {@code filter-max-capacity}, at {@code
   * filter-rate}.
   */
  public RedisBloomFilter.Shape filterShape(long ids) {
    long capacity = ids <= 1 ? 1 : Long.highestOneBit(ids - 1) << 1;
    capacity = Math.min(Math.max(capacity, filterMinCapacity), filterMaxCapacity);
    return RedisBloomFilter.Shape.of(capacity, filterRate);
  }

  private static void require(boolean holds, String message) {
    if (!holds) {
      throw new IllegalArgumentException(message);
    }
  }
}
