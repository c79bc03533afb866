package io.hotrank.cache;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Concurrent loads of one key share the load in progress: a hundred callers missing the same key
 * cost one load, and those that joined get its answer or its exception. Keys must have proper
 * {@code equals}/{@code hashCode}. Thread-safe.
 *
 * <p>By hand rather than Caffeine's {@code AsyncLoadingCache}: the callers here keep their own
 * entries (versioned, or newest-only), and a load in progress must be forgettable ({@link #forget})
 * when an invalidation makes its answer stale.
 *
 * @param <K> the key
 * @param <V> the loaded value
 */
final class SingleFlight<K, V> {

  private final ConcurrentHashMap<K, CompletableFuture<V>> loading = new ConcurrentHashMap<>();

  /**
   * Runs {@code load}, or joins the load of this key already in progress.
   *
   * @throws RuntimeException what the load threw; joined callers get the same exception
   */
  public V load(K key, Supplier<V> load) {
    CompletableFuture<V> mine = new CompletableFuture<>();
    CompletableFuture<V> running = loading.putIfAbsent(key, mine);
    if (running != null) {
      try {
        return running.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        throw e;
      }
    }
    try {
      V value = load.get();
      mine.complete(value);
      return value;
    } catch (Throwable e) {
      // Errors too: a joined caller must never wait for a load that died.
      mine.completeExceptionally(e);
      throw e;
    } finally {
      loading.remove(key, mine);
    }
  }

  /** Whether a load of this key is in progress. */
  public boolean inFlight(K key) {
    return loading.containsKey(key);
  }

  /**
   * Detaches the load of this key in progress: callers from now on start a load of their own (its
   * answer may be stale), while those already waiting still get it.
   */
  public void forget(K key) {
    loading.remove(key);
  }
}
