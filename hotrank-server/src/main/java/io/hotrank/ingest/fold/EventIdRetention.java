package io.hotrank.ingest.fold;

import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import io.hotrank.job.PruneJob;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The job {@code event-id-prune}: every hour (minute 29), under its lease, deletes the event ids
 * older than {@code hotrank.ingest.dedup-window}.
 */
final class EventIdRetention implements JobSource {

  static final String JOB = "event-id-prune";

  private final PruneJob job;

  EventIdRetention(EventIds ids, Clock clock, Duration window) {
    this.job =
        new PruneJob(
            JOB,
            "event ids older than " + window,
            5000,
            () -> clock.millis() - window.toMillis(),
            ids::prune);
  }

  @Override
  public List<JobDefinition> jobs() {
    return List.of(job.hourlyAt(29));
  }
}
