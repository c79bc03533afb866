package io.hotrank.job;

import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Measures every run: a timer {@code hotrank.job.runs} per job and outcome ({@code succeeded},
 * {@code skipped} when the lease went elsewhere, {@code cancelled}, {@code rejected} when a fenced
 * write was refused, {@code failed}) and the job's {@link JobStatus}, whose consecutive failures
 * the scheduler shows as the gauge {@code hotrank.job.consecutive.failures}. Meters are registered
 * up front: nothing on a run's path creates one.
 */
final class ObservedJob implements Job {

  static final List<String> OUTCOMES =
      List.of("succeeded", "skipped", "cancelled", "rejected", "failed");

  private final Job inner;
  private final JobStatus status;
  private final Clock clock;
  private final Ticker ticker;
  private final Map<String, Timer> timers = new HashMap<>();

  ObservedJob(Job inner, JobStatus status, MeterRegistry meters, Clock clock, Ticker ticker) {
    this.inner = inner;
    this.status = status;
    this.clock = clock;
    this.ticker = ticker;
    for (String outcome : OUTCOMES) {
      timers.put(
          outcome, meters.timer("hotrank.job.runs", "job", inner.name(), "outcome", outcome));
    }
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public boolean frequent() {
    return inner.frequent();
  }

  @Override
  public void run(JobContext context) throws Exception {
    Instant started = clock.instant();
    long start = ticker.read();
    String outcome = "failed";
    String error = null;
    try {
      inner.run(context);
      outcome = "succeeded";
    } catch (JobBusyException e) {
      outcome = "skipped";
      throw e;
    } catch (JobCancelledException e) {
      outcome = "cancelled";
      throw e;
    } catch (StaleFenceException e) {
      outcome = "rejected";
      error = e.getMessage();
      throw e;
    } catch (Exception | Error e) {
      error = e.toString();
      throw e;
    } finally {
      timers.get(outcome).record(ticker.read() - start, TimeUnit.NANOSECONDS);
      if (!outcome.equals("skipped")) {
        status.finished(
            new JobStatus.Run(
                context.scheduledAt(),
                started,
                clock.instant(),
                outcome,
                context.fence() > 0 ? context.fence() : status.runFence(),
                error));
      }
    }
  }
}
