package io.hotrank.lock;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The lease tokens a store object of this process has asked for and not given up, per name: from
 * just before an acquire is sent until its refusal, or the grant's release or loss. A token of this
 * process's own incarnation on a name that is not among them belongs to no work of this process (a
 * lease it released or lost, whose release the store never recorded: a Redis failover that lost the
 * last writes, a release that failed), so the store may hand the name to this process at once.
 * Acquires of one name by one store object run one at a time ({@link #acquiring}), so that the
 * tokens an acquire sends include every grant of the name this object can have received before its
 * own is decided. Thread-safe.
 */
final class LiveTokens {

  private final Map<String, Set<String>> byName = new ConcurrentHashMap<>();
  private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

  /** Runs an acquire of {@code name}, none other of it by this object meanwhile. */
  <T> T acquiring(String name, Supplier<T> acquire) {
    ReentrantLock lock = locks.computeIfAbsent(name, n -> new ReentrantLock());
    lock.lock();
    try {
      return acquire.get();
    } finally {
      lock.unlock();
    }
  }

  void add(String name, String token) {
    // In one compute: a set emptied and dropped by remove() between a lookup and an add would take
    // the token with it.
    byName.compute(
        name,
        (n, tokens) -> {
          Set<String> set = tokens == null ? ConcurrentHashMap.newKeySet() : tokens;
          set.add(token);
          return set;
        });
  }

  void remove(String name, String token) {
    byName.computeIfPresent(
        name,
        (n, tokens) -> {
          tokens.remove(token);
          return tokens.isEmpty() ? null : tokens;
        });
  }

  List<String> of(String name) {
    Set<String> tokens = byName.get(name);
    return tokens == null ? List.of() : List.copyOf(tokens);
  }
}
