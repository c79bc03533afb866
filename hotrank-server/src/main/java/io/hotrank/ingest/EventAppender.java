package io.hotrank.ingest;

import io.hotrank.event.Event;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessResourceFailureException;

/**
 * Appends accepted batches to the {@link EventSink} (the event log, or a Kafka topic) with group
 * commit: request threads queue their batch and wait; each of a few writer threads takes every
 * batch waiting (up to {@code group-events} events), appends them in one multi-row INSERT and one
 * commit, and then releases their requests. Under load one commit carries many batches, so the
 * database's commit rate, not the request rate, bounds throughput; at rest a batch waits for
 * nobody.
 *
 * <p>The queue is bounded twice, by events held and by the age of the oldest batch: when either is
 * passed the batch is refused at once with {@link IngestOverloadedException} (503, Retry-After)
 * rather than left waiting for seconds. A refused batch was not appended; an accepted one is
 * answered only once its commit is durable, and a failed append fails every batch of its group
 * (nothing of them is in the log).
 *
 * <p>Hand-written rather than taken from a library: what is needed is a bounded queue drained in
 * groups by a fixed set of writers, with per-batch completion; a general executor or a reactive
 * buffer would add the grouping on top anyway.
 */
final class EventAppender implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(EventAppender.class);

  /**
   * How long a request waits for its group at most by default: a safety net beyond the statement
   * and connection timeouts, never reached in practice.
   */
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

  private record Pending(EventSink.Batch batch, CompletableFuture<Integer> done, long queuedNanos) {

    int size() {
      return batch.events().size();
    }
  }

  private final EventSink sink;
  private final Ticker ticker;
  private final int writers;
  private final int groupEvents;
  private final int queueEvents;
  private final long queueDelayNanos;
  private final Counter accepted;
  private final Counter refused;
  private final Counter groups;
  private final Duration wait;

  private final Object lock = new Object();
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private int queued;
  private int writing;
  private boolean running;
  private final List<Thread> threads = new ArrayList<>();

  /**
   * @param wait how long a request waits for its group's write at most; past it the request is
   *     answered 503, and the sink is told the deadline so that it does not make the write visible
   *     after it
   */
  EventAppender(
      EventSink sink,
      IngestProperties properties,
      MeterRegistry meters,
      Ticker ticker,
      Duration wait) {
    this.sink = sink;
    this.wait = wait;
    this.ticker = ticker;
    this.writers = properties.writers();
    this.groupEvents = properties.groupEvents();
    this.queueEvents = properties.queueEvents();
    this.queueDelayNanos = properties.queueDelay().toNanos();
    this.accepted = meters.counter("hotrank.ingest.events", "outcome", "accepted");
    this.refused = meters.counter("hotrank.ingest.events", "outcome", "refused");
    this.groups = meters.counter("hotrank.ingest.appends");
    meters.gauge("hotrank.ingest.queued.events", this, a -> a.queuedEvents());
    meters.gauge("hotrank.ingest.writing.events", this, a -> a.writingEvents());
  }

  /**
   * Appends a request's events and returns once they are durable in the log.
   *
   * @return how many of its events the sink left out as duplicates of events accepted before
   * @throws IngestOverloadedException if the log is not keeping up (nothing appended)
   * @throws org.springframework.dao.DataAccessException if the append failed (nothing appended)
   * @throws IngestOutcomeUnknownException if it broke after the batch was sent, or outlasted the
   *     wait: it may have been appended
   */
  int append(EventSink.Batch batch) {
    List<Event> events = batch.events();
    CompletableFuture<Integer> done = new CompletableFuture<>();
    synchronized (lock) {
      if (!running) {
        throw new IngestOverloadedException("the service is stopping");
      }
      Pending head = queue.peekFirst();
      String reason = null;
      if (queued + events.size() > queueEvents) {
        reason = queued + " events are waiting to be written";
      } else if (head != null && ticker.read() - head.queuedNanos() > queueDelayNanos) {
        reason =
            "the oldest waiting batch has waited "
                + TimeUnit.NANOSECONDS.toMillis(ticker.read() - head.queuedNanos())
                + " ms";
      }
      if (reason != null) {
        refused.increment(events.size());
        throw new IngestOverloadedException(reason);
      }
      queue.addLast(new Pending(batch, done, ticker.read()));
      queued += events.size();
      lock.notify();
    }
    try {
      int duplicates = done.get(wait.toMillis(), TimeUnit.MILLISECONDS);
      accepted.increment(events.size() - duplicates);
      return duplicates;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw new IllegalStateException("appending events failed", e.getCause());
    } catch (TimeoutException e) {
      throw new IngestOutcomeUnknownException(
          "the event sink did not answer in " + wait + ", and may still append it", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DataAccessResourceFailureException("interrupted while appending events", e);
    }
  }

  int queuedEvents() {
    synchronized (lock) {
      return queued;
    }
  }

  /** Events taken by a writer whose append has not ended yet. */
  int writingEvents() {
    synchronized (lock) {
      return writing;
    }
  }

  private void write(int index) {
    try (EventSink.Writer writer = sink.writer(index)) {
      write(writer);
    }
  }

  private void write(EventSink.Writer writer) {
    while (true) {
      List<Pending> group = new ArrayList<>();
      int events = 0;
      synchronized (lock) {
        while (queue.isEmpty() && running) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
        if (queue.isEmpty()) {
          return; // stopped and drained
        }
        while (!queue.isEmpty()
            && (group.isEmpty() || events + queue.peekFirst().size() <= groupEvents)) {
          Pending p = queue.pollFirst();
          group.add(p);
          events += p.size();
        }
        queued -= events;
        writing += events;
      }
      try {
        appendGroup(writer, group, events);
      } finally {
        synchronized (lock) {
          writing -= events;
        }
      }
    }
  }

  private void appendGroup(EventSink.Writer writer, List<Pending> group, int events) {
    List<EventSink.Batch> batches = new ArrayList<>(group.size());
    group.forEach(p -> batches.add(p.batch()));
    try {
      long deadline = Long.MAX_VALUE;
      for (Pending p : group) {
        deadline = Math.min(deadline, p.queuedNanos() + wait.toNanos());
      }
      int[] duplicates = writer.write(batches, deadline);
      groups.increment();
      for (int i = 0; i < group.size(); i++) {
        group.get(i).done().complete(duplicates[i]);
      }
    } catch (RuntimeException e) {
      log.warn("Appending {} events of {} batches failed: {}", events, group.size(), e.toString());
      group.forEach(p -> p.done().completeExceptionally(e));
    } catch (Throwable e) {
      // Never leave a request waiting on a writer that died.
      log.error("Appending {} events of {} batches failed", events, group.size(), e);
      group.forEach(p -> p.done().completeExceptionally(e));
      throw e;
    }
  }

  @Override
  public void start() {
    synchronized (lock) {
      if (running) {
        return;
      }
      running = true;
      for (int i = 0; i < writers; i++) {
        int index = i;
        Thread t = Thread.ofPlatform().name("event-append-" + i).daemon().start(() -> write(index));
        threads.add(t);
      }
    }
  }

  /** Stops taking batches, and returns once those already queued are written. */
  @Override
  public void stop() {
    synchronized (lock) {
      running = false;
      lock.notifyAll();
    }
    for (Thread t : threads) {
      try {
        t.join(wait.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    threads.clear();
  }

  @Override
  public boolean isRunning() {
    synchronized (lock) {
      return running;
    }
  }

  /** Stopped after the web server (which stops at a higher phase) has finished its requests. */
  @Override
  public int getPhase() {
    return 0;
  }
}
