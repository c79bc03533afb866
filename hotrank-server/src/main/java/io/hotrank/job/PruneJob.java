package io.hotrank.job;

import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.support.CronExpression;

/**
 * A job that deletes rows past their retention, in batches, each its own statement so that no
 * single delete holds locks on a large range, and stops between batches when the service stops or
 * the lease is lost. The cutoff is taken once per run, from the clock that stamps the rows.
 */
public final class PruneJob implements Job {

  private static final Logger log = LoggerFactory.getLogger(PruneJob.class);

  /** Deletes up to {@code batch} rows older than {@code cutoff}, and says how many. */
  @FunctionalInterface
  public interface BatchDelete {
    int delete(long cutoff, int batch);
  }

  private final String name;
  private final String what;
  private final int batch;
  private final LongSupplier cutoff;
  private final BatchDelete delete;

  /**
   * @param what what the rows are, for the log line ("audit entries")
   * @param cutoff the cutoff of a run, epoch milliseconds
   */
  public PruneJob(String name, String what, int batch, LongSupplier cutoff, BatchDelete delete) {
    this.name = name;
    this.what = what;
    this.batch = batch;
    this.cutoff = cutoff;
    this.delete = delete;
  }

  /** The job, every hour at {@code minute} (away from the top of the hour when others fire). */
  public JobDefinition hourlyAt(int minute) {
    return new JobDefinition(this, CronExpression.parse("0 " + minute + " * * * *"));
  }

  /** The job, every hour at {@code minute}, as the one job of a {@link JobSource} bean. */
  public JobSource hourlySource(int minute) {
    JobDefinition definition = hourlyAt(minute);
    return () -> List.of(definition);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void run(JobContext context) {
    long before = cutoff.getAsLong();
    long deleted = 0;
    int n;
    do {
      n = delete.delete(before, batch);
      deleted += n;
    } while (n >= batch && !context.cancelled());
    if (deleted > 0) {
      log.info("{}: deleted {} {}", name, deleted, what);
    }
    context.report(deleted);
  }
}
