package io.hotrank.cache;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;

/**
 * The counters of one {@link TieredCache}, each tagged {@code cache=<name>}: {@code
 * hotrank.cache.reads} per answering tier ({@code source}), {@code hotrank.cache.origin.queries},
 * {@code hotrank.cache.filtered} (keys the absence filter answered), {@code hotrank.cache.shed}
 * (reads refused by a full bulkhead) and {@code hotrank.cache.lease.waits} per {@code outcome}
 * ({@code served} by another instance's load, {@code expired}).
 */
final class TieredCacheMetrics {

  private final Map<ReadSource, Counter> reads = new EnumMap<>(ReadSource.class);
  final Counter originQueries;
  final Counter filtered;
  final Counter shed;
  final Counter leaseWaitsServed;
  final Counter leaseWaitsExpired;

  TieredCacheMetrics(String name, MeterRegistry meters) {
    for (ReadSource source : ReadSource.values()) {
      reads.put(
          source, meters.counter("hotrank.cache.reads", "cache", name, "source", source.header()));
    }
    this.originQueries = meters.counter("hotrank.cache.origin.queries", "cache", name);
    this.filtered = meters.counter("hotrank.cache.filtered", "cache", name);
    this.shed = meters.counter("hotrank.cache.shed", "cache", name);
    this.leaseWaitsServed =
        meters.counter("hotrank.cache.lease.waits", "cache", name, "outcome", "served");
    this.leaseWaitsExpired =
        meters.counter("hotrank.cache.lease.waits", "cache", name, "outcome", "expired");
  }

  /** Counts a read answered by {@code source}. */
  void read(ReadSource source) {
    reads.get(source).increment();
  }
}
