package io.hotrank.hotkey;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts reads per key in slices of time, for one instance. A slice counts at most {@code maxKeys}
 * distinct keys, so memory stays bounded whatever the key space; reads of a key that finds its
 * slice full are not counted (a key hot enough to matter is read early in every slice). Recording
 * is a map lookup and an adder increment. The pusher takes what was counted since its last take,
 * several times a slice, so that a burst reaches the detector before its slice ends. Thread-safe.
 */
final class HotKeyCounter {

  /**
   * A slice's counts: its number (epoch millis / slice length), its keys' reads, and (the pusher's
   * alone) how many of each key's reads were taken already.
   */
  private record Slice(
      long number, Map<String, LongAdder> counts, AtomicInteger size, Map<String, Long> taken) {

    Slice(long number) {
      this(number, new ConcurrentHashMap<>(), new AtomicInteger(), new HashMap<>());
    }
  }

  private final long sliceMillis;
  private final int maxKeys;
  private final LongAdder dropped = new LongAdder();
  private final List<Slice> finished = new ArrayList<>();
  private volatile Slice current;

  HotKeyCounter(long sliceMillis, int maxKeys, long nowMillis) {
    this.sliceMillis = sliceMillis;
    this.maxKeys = maxKeys;
    this.current = new Slice(nowMillis / sliceMillis);
  }

  /** Counts a read of {@code key} at {@code nowMillis}. */
  void record(String key, long nowMillis) {
    Slice slice = current;
    if (slice.number() != nowMillis / sliceMillis) {
      slice = roll(nowMillis);
    }
    LongAdder count = slice.counts().get(key);
    if (count == null) {
      if (slice.size().get() >= maxKeys) {
        dropped.increment();
        return;
      }
      Slice into = slice;
      count =
          slice
              .counts()
              .computeIfAbsent(
                  key,
                  k -> {
                    into.size().incrementAndGet();
                    return new LongAdder();
                  });
    }
    count.increment();
  }

  /**
   * The reads counted since the last take, per slice (by number, oldest first): of each slice the
   * {@code top} keys with the most such reads, most first. A slice over by {@code nowMillis} is
   * taken for the last time; the keys left out of a take stay to be taken from a slice not yet
   * over.
   */
  synchronized Map<Long, List<Map.Entry<String, Long>>> take(long nowMillis, int top) {
    Slice now = roll(nowMillis);
    Map<Long, List<Map.Entry<String, Long>>> taken = new LinkedHashMap<>();
    List<Slice> slices = new ArrayList<>(finished);
    slices.add(now);
    finished.clear();
    for (Slice slice : slices) {
      List<Map.Entry<String, Long>> fresh = new ArrayList<>();
      slice
          .counts()
          .forEach(
              (key, count) -> {
                long reads = count.sum() - slice.taken().getOrDefault(key, 0L);
                if (reads > 0) {
                  fresh.add(Map.entry(key, reads));
                }
              });
      if (fresh.isEmpty()) {
        continue;
      }
      fresh.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()));
      List<Map.Entry<String, Long>> best = fresh.size() <= top ? fresh : fresh.subList(0, top);
      best.forEach(e -> slice.taken().merge(e.getKey(), e.getValue(), Long::sum));
      taken.put(slice.number(), List.copyOf(best));
    }
    return taken;
  }

  /** Reads not counted because their slice was full. */
  long dropped() {
    return dropped.sum();
  }

  private synchronized Slice roll(long nowMillis) {
    long number = nowMillis / sliceMillis;
    Slice slice = current;
    if (slice.number() < number) {
      if (!slice.counts().isEmpty()) {
        finished.add(slice);
      }
      slice = new Slice(number);
      current = slice;
    }
    return slice;
  }
}
