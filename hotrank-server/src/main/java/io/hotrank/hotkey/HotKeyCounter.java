package io.hotrank.hotkey;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts reads per key in slices of time, for one instance. A slice counts at most {@code maxKeys}
 * distinct keys, so memory stays bounded whatever the key space; reads of a key that finds its
 * slice full are not counted (a key hot enough to matter is read early in every slice). Recording
 * is a map lookup and an adder increment; a slice is handed over once it has ended. Thread-safe.
 */
final class HotKeyCounter {

  /** A slice's counts: its number (epoch millis / slice length) and its keys' reads. */
  record Slice(long number, Map<String, LongAdder> counts, AtomicInteger size) {

    Slice(long number) {
      this(number, new ConcurrentHashMap<>(), new AtomicInteger());
    }

    /** The {@code n} most read keys, most read first. */
    List<Map.Entry<String, Long>> top(int n) {
      List<Map.Entry<String, Long>> all = new ArrayList<>(counts.size());
      counts.forEach((key, count) -> all.add(Map.entry(key, count.sum())));
      all.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()));
      return all.size() <= n ? all : all.subList(0, n);
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

  /** The slices that ended by {@code nowMillis} and were not taken yet, oldest first. */
  synchronized List<Slice> takeFinished(long nowMillis) {
    roll(nowMillis);
    List<Slice> taken = List.copyOf(finished);
    finished.clear();
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
