package io.hotrank.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.dao.QueryTimeoutException;

/**
 * Writes runs' completions in groups (a group commit): a worker hands its completion over and
 * waits; one thread writes whatever has gathered meanwhile in one transaction ({@link
 * TaskStore#completeAll}). Under load many completions share a commit; alone, one is written at
 * once. A group that fails is written again one completion at a time, so that one bad row does not
 * fail the others. Each completion stays guarded by its run's fence, as when written alone.
 *
 * <p>Written here rather than with a library: what is grouped is the engine's own fenced
 * statements, in its own transaction, with a fallback per completion; a general batching library
 * would know none of that.
 */
final class Completions {

  /** Most completions in one transaction: bounds how long its row locks are held. */
  private static final int MAX_GROUP = 64;

  private record Pending(TaskStore.Completion completion, CompletableFuture<Boolean> written) {}

  private final TaskStore store;
  private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
  private final Thread writer;
  private volatile boolean open = true;

  Completions(TaskStore store) {
    this.store = store;
    this.writer = Thread.ofPlatform().name("task-complete").daemon(true).start(this::writeLoop);
  }

  /**
   * Writes a completion, with any gathered meanwhile, and waits for it: after {@link #close}, on
   * the calling thread.
   *
   * @param limit how long to wait for a completion not yet handed to the database
   * @return whether it was written: false if the run had been taken over
   * @throws org.springframework.dao.DataAccessException if it could not be written
   */
  boolean complete(TaskStore.Completion completion, Duration limit) throws InterruptedException {
    if (!open) {
      return store.complete(completion);
    }
    Pending pending = new Pending(completion, new CompletableFuture<>());
    queue.add(pending);
    try {
      try {
        return pending.written.get(limit.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        if (queue.remove(pending)) {
          throw new QueryTimeoutException("Completion not written within " + limit);
        }
        // Taken by the writer: its statements are bounded by the statement timeout.
        return pending.written.get();
      }
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new IllegalStateException(e.getCause());
    }
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
    while (open || !queue.isEmpty()) {
      Pending first;
      try {
        first = queue.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      if (first == null) {
        continue;
      }
      List<Pending> group = new ArrayList<>();
      group.add(first);
      queue.drainTo(group, MAX_GROUP - 1);
      write(group);
    }
    // Interrupted: what is left is written by its callers, who time out waiting.
  }

  private void write(List<Pending> group) {
    if (group.size() > 1) {
      try {
        boolean[] written = store.completeAll(group.stream().map(Pending::completion).toList());
        for (int i = 0; i < written.length; i++) {
          group.get(i).written.complete(written[i]);
        }
        return;
      } catch (RuntimeException e) {
        // Rolled back as a whole: each on its own, below.
      }
    }
    for (Pending pending : group) {
      try {
        pending.written.complete(store.complete(pending.completion));
      } catch (RuntimeException e) {
        pending.written.completeExceptionally(e);
      }
    }
  }
}
