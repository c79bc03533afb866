package io.hotrank.audit;

import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.support.CronExpression;
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

  private static final Logger log = LoggerFactory.getLogger(AuditRetention.class);

  private final AuditStore store;
  private final Clock clock;
  private final Duration retention;

  AuditRetention(AuditStore store, Clock clock, AuditProperties properties) {
    this.store = store;
    this.clock = clock;
    this.retention = properties.auditRetention();
  }

  @Override
  public List<JobDefinition> jobs() {
    return List.of(new JobDefinition(new PruneJob(), CronExpression.parse("0 17 * * * *")));
  }

  private final class PruneJob implements Job {

    @Override
    public String name() {
      return JOB;
    }

    @Override
    public void run(JobContext context) {
      long cutoff = clock.millis() - retention.toMillis();
      long deleted = 0;
      int n;
      do {
        n = store.deleteOlderThan(cutoff, BATCH);
        deleted += n;
      } while (n >= BATCH && !context.cancelled());
      if (deleted > 0) {
        log.info("Deleted {} audit entries older than {}", deleted, retention);
      }
      context.report(deleted);
    }
  }
}
