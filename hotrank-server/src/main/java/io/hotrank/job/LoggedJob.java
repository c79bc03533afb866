package io.hotrank.job;

import io.hotrank.time.Ticker;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * One structured line per run, for people and for tools that check which instance ran which cycle:
 * {@code job=<name> cycle=<fire time> fence=<token> instance=<id> trigger=<schedule|request>
 * outcome=<succeeded|cancelled|rejected|failed> duration_ms=<n>} and, on failure, {@code
 * error=<message>}.
 */
final class LoggedJob implements Job {

  private static final Logger log = LoggerFactory.getLogger(LoggedJob.class);

  private final Job inner;
  private final String instance;
  private final Ticker ticker;

  LoggedJob(Job inner, String instance, Ticker ticker) {
    this.inner = inner;
    this.instance = instance;
    this.ticker = ticker;
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public void run(JobContext context) throws Exception {
    long start = ticker.read();
    String outcome = "failed";
    String error = "";
    try {
      inner.run(context);
      outcome = "succeeded";
    } catch (JobCancelledException e) {
      outcome = "cancelled";
      throw e;
    } catch (StaleFenceException e) {
      outcome = "rejected";
      error = " error=\"" + String.valueOf(e.getMessage()).replace('"', '\'') + "\"";
      throw e;
    } catch (Exception | Error e) {
      error = " error=\"" + String.valueOf(e.getMessage()).replace('"', '\'') + "\"";
      throw e;
    } finally {
      boolean quiet = inner.frequent() && !context.manual() && outcome.equals("succeeded");
      log.atLevel(quiet ? Level.DEBUG : Level.INFO)
          .log(
              "job={} cycle={} fence={} instance={} trigger={} outcome={} duration_ms={}{}",
              context.job(),
              context.scheduledAt(),
              context.fence(),
              instance,
              context.manual() ? "request" : "schedule",
              outcome,
              TimeUnit.NANOSECONDS.toMillis(ticker.read() - start),
              error);
    }
  }

  @Override
  public boolean frequent() {
    return inner.frequent();
  }
}
