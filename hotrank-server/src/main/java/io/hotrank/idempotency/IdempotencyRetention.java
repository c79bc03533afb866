package io.hotrank.idempotency;

import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import io.hotrank.job.PruneJob;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The job {@code idempotency-prune}: every hour (minute 23), under its lease, deletes the keys
 * older than {@code hotrank.idempotency.retention}. A key past the retention and not yet pruned is
 * free already (the filter takes it over).
 */
final class IdempotencyRetention implements JobSource {

  static final String JOB = "idempotency-prune";

  private final PruneJob job;

  IdempotencyRetention(IdempotencyStore store, Clock clock, Duration retention) {
    this.job =
        new PruneJob(
            JOB,
            "idempotency keys older than " + retention,
            1000,
            () -> clock.millis() - retention.toMillis(),
            store::prune);
  }

  @Override
  public List<JobDefinition> jobs() {
    return List.of(job.hourlyAt(23));
  }
}
