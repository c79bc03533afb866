/**
 * Events in, counters out, exactly once. {@code POST /api/v1/events} validates a batch and hands it
 * to the configured {@link io.hotrank.ingest.EventSource}, in groups ({@link
 * io.hotrank.ingest.EventAppender}), and answers 202 once it is durable there; the source folds
 * what it accepted into the item counters and the per-user state, each event once, and tells every
 * {@link io.hotrank.ingest.FoldListener} (the Redis side) of each fold by number. Inside: {@code
 * fold} holds what every source folds with (the counters, the fold numbers, the listeners, the
 * event ids), {@code log} the event log source (the default), {@code kafka} the Kafka source.
 * Builds on events, items, jobs, storage and trust (what each actor's events weigh).
 */
@ApplicationModule(
    allowedDependencies = {
      "audit",
      "event",
      "idempotency",
      "item",
      "job",
      "lock",
      "storage",
      "trust",
      "web"
    })
@NullMarked
package io.hotrank.ingest;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
