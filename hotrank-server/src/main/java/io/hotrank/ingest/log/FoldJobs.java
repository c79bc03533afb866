package io.hotrank.ingest.log;

import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldBehindException;
import io.hotrank.ingest.FoldOnRequest;
import io.hotrank.ingest.FoldOnRequest.Progress;
import io.hotrank.ingest.FoldOnRequest.Summary;
import io.hotrank.ingest.IngestProperties;
import io.hotrank.ingest.fold.FoldListeners;
import io.hotrank.ingest.fold.InFlightFolds;
import io.hotrank.job.DrainLoop;
import io.hotrank.job.DrainLoop.Step;
import io.hotrank.job.FaultPoints;
import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import io.hotrank.time.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.support.CronExpression;

/**
 * The folder and the pruning of the log as jobs. {@code event-fold} fires every second; a run folds
 * whatever is waiting, then keeps looking every {@code fold-interval} until just before the next
 * second, so an accepted event reaches the counters within about the interval. It runs as a leader
 * job on the database's leases by default ({@code hotrank.jobs.event-fold}), so folding goes on
 * while Redis is down; exactness does not depend on the lease (each fold locks the cursor row).
 * {@code event-log-prune} deletes folded rows older than the retention, every minute.
 */
final class FoldJobs implements JobSource, FoldOnRequest {

  static final String FOLD = "event-fold";
  static final String PRUNE = "event-log-prune";

  private static final Logger log = LoggerFactory.getLogger(FoldJobs.class);
  private static final int PRUNE_CHUNK = 10_000;

  private final EventFolder folder;
  private final EventLog eventLog;
  private final FoldListeners listeners;
  private final Clock clock;
  private final Ticker ticker;
  private final IngestProperties properties;
  private final FaultPoints faults;
  private final InFlightFolds inFlight = new InFlightFolds();
  private final FoldBarrier barrier;

  FoldJobs(
      EventFolder folder,
      EventLog eventLog,
      FoldListeners listeners,
      Clock clock,
      Ticker ticker,
      IngestProperties properties,
      FaultPoints faults) {
    this.ticker = ticker;
    this.faults = faults;
    this.folder = folder;
    this.eventLog = eventLog;
    this.listeners = listeners;
    this.clock = clock;
    this.properties = properties;
    this.barrier =
        new FoldBarrier(
            () -> {
              Fold fold = foldAndTell(new Progress());
              return new FoldBarrier.Attempt(fold != null, eventLog.cursor());
            },
            ticker);
  }

  @Override
  public List<JobDefinition> jobs() {
    return List.of(
        new JobDefinition(
            new FoldJob(),
            properties.folding() && properties.source() == IngestProperties.Source.LOG
                ? CronExpression.parse("* * * * * *")
                : null),
        new JobDefinition(new PruneJob(), CronExpression.parse("30 * * * * *")));
  }

  /**
   * Folds until nothing is waiting (or {@code maxFolds} folds), and brings the listeners (Redis) up
   * to the last fold; what the admin endpoint and tests use to see every accepted event applied
   * now.
   */
  Summary foldAll(int maxFolds) {
    return foldAll(maxFolds, new Progress());
  }

  /**
   * {@link #foldAll(int)}, counting each fold in {@code progress} as soon as it has committed, so
   * that a caller whose call fails part way (a later fold, or telling the listeners) knows what was
   * folded before the failure.
   */
  @Override
  public Summary foldAll(int maxFolds, Progress progress) {
    while (progress.folds() < maxFolds) {
      Fold fold = foldAndTell(progress);
      if (fold == null) {
        break;
      }
    }
    int folds = progress.folds();
    int events = progress.events();
    // The scheduled folder of this instance may have folded what this call found gone, and still be
    // telling the listeners: wait for the attempts begun so far (10 s at most).
    try {
      if (!inFlight.awaitBegun(100, 100)) {
        log.warn("A fold in progress had not told its listeners after 10 s; answering anyway");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    FoldCursor cursor = eventLog.cursor();
    // A fold another instance committed may not have reached Redis yet: bring the listeners up to
    // the last one, so that the answer means "applied everywhere".
    catchUpListeners(cursor.foldNo());
    return new Summary(folds, events, cursor.foldNo(), cursor.position(), cursor.gaps().size());
  }

  /**
   * Folds until the log's position passes its head as read at the call, then brings the listeners
   * up to the last fold. Every event accepted before the call has a seq at or below that head and
   * was committed before it; a fold that began after the call reads all the open gaps, so once one
   * of them leaves the position at or past the head, none of those events is left behind. The folds
   * run in {@link FoldBarrier}'s loop, shared by concurrent callers and off the caller's thread, so
   * that a fold held up on the cursor's lock or on a slow database cannot hold the caller past the
   * timeout.
   */
  @Override
  public void awaitAccepted() {
    Duration timeout = properties.foldBarrierTimeout();
    long deadline = ticker.read() + timeout.toNanos();
    long foldNo = barrier.awaitPast(eventLog.head(), timeout);
    // A fold of the scheduled folder may still be telling its listeners; wait for it within what is
    // left of the bound, then catch the listeners up here whatever it did.
    long left = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - ticker.read()));
    try {
      if (!inFlight.awaitBegun((int) Math.max(1, left / 20), 20)) {
        log.debug("A fold in progress had not told its listeners within the barrier's bound");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FoldBehindException(timeout, "interrupted");
    }
    catchUpListeners(foldNo);
  }

  private void catchUpListeners(long lastFoldNo) {
    listeners.idle(lastFoldNo);
  }

  private Fold foldAndTell(Progress progress) {
    long attempt = inFlight.begin();
    try {
      Fold fold = folder.foldOnce();
      if (fold != null) {
        progress.committed(fold.events().size());
        faults.point(FOLD, "after-commit", "fold=" + fold.foldNo());
        listeners.folded(fold);
      }
      return fold;
    } finally {
      inFlight.end(attempt);
    }
  }

  private final class FoldJob implements Job {

    @Override
    public String name() {
      return FOLD;
    }

    @Override
    public boolean frequent() {
      return true;
    }

    @Override
    public boolean lingers() {
      return true;
    }

    @Override
    public void run(JobContext context) throws InterruptedException {
      boolean idle =
          DrainLoop.run(
              context,
              ticker,
              properties.foldInterval(),
              () -> {
                Fold fold = foldAndTell(new Progress());
                return fold == null ? Step.IDLE : fold.more() ? Step.MORE : Step.DONE;
              });
      if (idle && !context.cancelled()) {
        catchUpListeners(eventLog.cursor().foldNo());
      }
    }
  }

  private final class PruneJob implements Job {

    @Override
    public String name() {
      return PRUNE;
    }

    @Override
    public void run(JobContext context) {
      long cutoff = clock.millis() - properties.retention().toMillis();
      long deleted = 0;
      int n;
      do {
        n = eventLog.prune(cutoff, PRUNE_CHUNK);
        deleted += n;
      } while (n > 0 && !context.cancelled());
      if (deleted > 0) {
        log.info("Pruned {} folded event log rows older than {}", deleted, properties.retention());
      }
    }
  }
}
