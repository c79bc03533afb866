package io.hotrank.item;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Walks a window of counter rows page by page in keyset order, reading the next page while the
 * caller ranks the current one. A page's keyset position is known as soon as the page before it is
 * read, so the database produces page n + 1 while this process scores page n: a ranking scan costs
 * about the larger of the two, not their sum (measured with {@code bench/segments.sh}). At most one
 * read is in flight, on a virtual thread with a pooled connection of its own; callers must not need
 * the pages read in their own transaction.
 */
final class WindowScan {

  /** Reads the page strictly after a keyset position. */
  @FunctionalInterface
  interface PageReader<R> {
    List<R> after(long afterCreated, long afterId);
  }

  private WindowScan() {}

  /**
   * Reads every page from the position {@code (fromMillis, 0)}, handing each to {@code each} in
   * order; a page shorter than {@code pageSize} is the last. {@code stopped} is asked before each
   * page is handed on: once true, the scan ends (a read already in flight is awaited, bounded by
   * the query timeout, and dropped), so a cancelled run reads at most one page more.
   *
   * @return the rows read
   * @throws RuntimeException what a read or {@code each} threw; a read in flight is awaited first
   */
  static <R> long scan(
      PageReader<R> reader,
      ToLongFunction<R> createdAt,
      ToLongFunction<R> id,
      long fromMillis,
      int pageSize,
      BooleanSupplier stopped,
      Consumer<List<R>> each) {
    if (stopped.getAsBoolean()) {
      return 0;
    }
    try (ExecutorService prefetch = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<List<R>> next = prefetch.submit(() -> reader.after(fromMillis, 0));
      long scanned = 0;
      while (next != null) {
        List<R> page = await(next);
        next = null;
        if (stopped.getAsBoolean()) {
          break;
        }
        if (page.size() >= pageSize) {
          R last = page.getLast();
          long lastCreated = createdAt.applyAsLong(last);
          long lastId = id.applyAsLong(last);
          next = prefetch.submit(() -> reader.after(lastCreated, lastId));
        }
        each.accept(page);
        scanned += page.size();
      }
      return scanned;
    }
  }

  private static <R> List<R> await(Future<List<R>> page) {
    try {
      return page.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading a window page", e);
    }
  }
}
