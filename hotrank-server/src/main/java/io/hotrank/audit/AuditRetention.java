package io.hotrank.audit;

import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import io.hotrank.job.PruneJob;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The job {@code audit-prune}: every hour (minute 17, away from the top of the hour when other jobs
 * fire), under its lease so that one instance does it, deletes the entries older than {@code
 * hotrank.admin.audit-retention} in batches of {@value #BATCH}, each its own statement, so that no
 * single delete holds locks on a large range; it stops between batches when the service stops. The
 * cutoff comes from the same clock that stamps entries ({@link AuditLog}).
 */
@Component
class AuditRetention implements JobSource {

  /** The job's name, and its lease's. */
  static final String JOB = "audit-prune";

  static final int BATCH = 1000;

  private final PruneJob job;

  AuditRetention(AuditStore store, Clock clock, AuditProperties properties) {
    Duration retention = properties.auditRetention();
    this.job =
        new PruneJob(
            JOB,
            "audit entries older than " + retention,
            BATCH,
            () -> clock.millis() - retention.toMillis(),
            store::deleteOlderThan);
  }

  @Override
  public List<JobDefinition> jobs() {
    return List.of(job.hourlyAt(17));
  }
}
