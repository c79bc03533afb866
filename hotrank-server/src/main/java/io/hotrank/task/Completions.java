package io.hotrank.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.QueryTimeoutException;

/**
 * Writes runs' completions in groups (a group commit): a worker hands its completion over and
 * waits; one thread writes whatever has gathered meanwhile in one transaction ({@link
 * TaskStore#completeAll}). Under load many completions share a commit; alone, one is written at
 * once. Each completion stays guarded by its run's fence, as when written alone. A group that fails
 * (within a second: it may have met a row held locked) is handed back, and each worker then writes
 * its own completion alone, on its own thread, so that one row does not hold up the others.
 *
 * <p>Written here rather than with a library: what is grouped is the engine's own fenced
 * statements, in its own transaction, with a fallback per completion; a general batching library
 * would know none of that.
 */
final class Completions {

  /** Most completions in one transaction: bounds how long its row locks are held. */
  private static final int MAX_GROUP = 64;

  /** Shortest wait for the writer, whatever the caller's limit. */
  private static final Duration MIN_WAIT = Duration.ofSeconds(5);

  /**
   * A completion waiting for the writer: its future answers whether it was written, or null when
   * its caller is to write it alone.
   */
  private record Pending(Completion completion, CompletableFuture<@Nullable Boolean> written) {}

  private final TaskStore store;
  private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
  private final Thread writer;
  private volatile boolean open = true;

  Completions(TaskStore store) {
    this.store = store;
    this.writer = Thread.ofPlatform().name("task-complete").daemon(true).start(this::writeLoop);
  }

  /**
   * Writes a completion, with any gathered meanwhile, and waits for it; alone, on the calling
   * thread, when the writer is closed or its group failed.
   *
   * @param limit how long to wait for the writer to take it up (at least five seconds)
   * @return whether it was written: false if the run had been taken over
   * @throws org.springframework.dao.DataAccessException if it could not be written
   */
  boolean complete(Completion completion, Duration limit) throws InterruptedException {
    if (!open) {
      return store.complete(completion);
    }
    Pending pending = new Pending(completion, new CompletableFuture<>());
    queue.add(pending);
    if (!open && queue.remove(pending)) {
      return store.complete(completion); // closed meanwhile: the writer may be gone
    }
    // At least long enough for a group that meets a locked row to fail and hand it back.
    long wait = Math.max(limit.toMillis(), MIN_WAIT.toMillis());
    Boolean written;
    try {
      try {
        written = pending.written.get(wait, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        if (queue.remove(pending)) {
          return store.complete(completion); // the writer is stuck: written here, alone
        }
        // Taken up: its group's statements time out within seconds.
        written = pending.written.get(wait, TimeUnit.MILLISECONDS);
      }
    } catch (TimeoutException e) {
      // The group may still commit: a retry is then refused by the fence (nothing written twice).
      throw new QueryTimeoutException("Completion not written within twice " + wait + " ms");
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause()); // the writer answers, never fails a future
    }
    return written == null ? store.complete(completion) : written;
  }

  /** Writes what is queued, then leaves completions to their callers. */
  void close() {
    open = false;
    try {
      writer.join(Duration.ofSeconds(15));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void writeLoop() {
    try {
      while (open || !queue.isEmpty()) {
        Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
        if (first != null) {
          List<Pending> group = new ArrayList<>();
          group.add(first);
          queue.drainTo(group, MAX_GROUP - 1);
          write(group);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      // Ended, however: what is still queued, and all that comes later, is written by its caller.
      open = false;
      for (Pending left = queue.poll(); left != null; left = queue.poll()) {
        left.written.complete(null);
      }
    }
  }

  private void write(List<Pending> group) {
    boolean[] written;
    try {
      written = store.completeAll(group.stream().map(Pending::completion).toList());
    } catch (RuntimeException | Error e) {
      group.forEach(pending -> pending.written.complete(null)); // each written alone, by its caller
      if (e instanceof Error error) {
        throw error;
      }
      return;
    }
    for (int i = 0; i < written.length; i++) {
      group.get(i).written.complete(written[i]);
    }
  }
}
