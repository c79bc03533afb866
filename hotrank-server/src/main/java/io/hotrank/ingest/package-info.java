/**
 * The durable event log and the folder that applies it once. {@code POST /api/v1/events} appends a
 * validated batch to {@code hr_event_log} with group commit ({@link
 * io.hotrank.ingest.EventAppender}) and answers 202 once it is durable; the {@code event-fold} job
 * folds the log in order into the item counters and the per-user state, moving a cursor in the same
 * transaction, and tells every {@link io.hotrank.ingest.FoldListener} (the Redis side) of each
 * fold. Builds on events, items, jobs and storage.
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
      "web"
    })
@NullMarked
package io.hotrank.ingest;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
