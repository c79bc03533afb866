package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardSink;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.BoardUnavailableException;
import io.hotrank.board.ControlsApplied;
import io.hotrank.job.DrainLoop;
import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import io.hotrank.time.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The jobs of realtime boards. {@code board-<name>} (on the board's refresh, every second by
 * default, and then within the second after each fold this instance applies and every {@code
 * hotrank.realtime.publish-interval}) reads the board's top from Redis, drops deleted items,
 * attaches display fields and counters, orders ties by createdAt then id (newest first), and
 * publishes it through the same path as batch boards (local snapshot, Redis, database, ETag, static
 * export), unless it is unchanged. The candidates come from the board's kind ({@link
 * RealtimeKind#entries}), which may add jobs of its own ({@link RealtimeKind#jobs}).
 */
final class RealtimeJobs implements JobSource {

  /** The least time between two looks at a board within a run. */
  private static final Duration MIN_GAP = Duration.ofMillis(50);

  private final RealtimeBoards boards;
  private final BoardSink publisher;
  private final Clock clock;
  private final Ticker ticker;
  private final Duration publishInterval;
  private final AppliedFolds appliedFolds;

  RealtimeJobs(
      RealtimeBoards boards,
      BoardSink publisher,
      Clock clock,
      Ticker ticker,
      RealtimeProperties properties,
      AppliedFolds appliedFolds) {
    this.boards = boards;
    this.publisher = publisher;
    this.clock = clock;
    this.ticker = ticker;
    this.publishInterval = properties.publishInterval();
    this.appliedFolds = appliedFolds;
  }

  /** The name of a realtime board's publish job. */
  static String publishJobName(String board) {
    return "board-" + board;
  }

  @Override
  public List<JobDefinition> jobs() {
    List<JobDefinition> jobs = new ArrayList<>();
    for (RealtimeBoards.Kept kept : boards.all()) {
      jobs.add(new JobDefinition(new PublishJob(kept), kept.board().cron()));
      jobs.addAll(kept.kind().jobs(kept.board()));
    }
    return jobs;
  }

  /**
   * Whether a run of a board refreshed this often looks for changes again until just before the
   * next run: when it runs every second (the default) or more often.
   */
  static boolean looksAgainWithinRun(Duration refreshInterval) {
    return refreshInterval.compareTo(Duration.ofSeconds(1)) <= 0;
  }

  /** The candidates a publish was given and the version it served afterwards. */
  private record Published(long version, List<BoardEntry> candidates) {}

  /** Publishes a realtime board's read snapshot. */
  private final class PublishJob implements Job {

    private final BoardDefinition board;
    private final RealtimeKind kind;

    /**
     * What this instance published last: unchanged candidates need no new version unless the held
     * snapshot is another's (an operator's control changed it, which the next publish must keep).
     */
    private volatile @Nullable Published last;

    PublishJob(RealtimeBoards.Kept kept) {
      this.board = kept.board();
      this.kind = kept.kind();
    }

    @Override
    public String name() {
      return publishJobName(board.name());
    }

    @Override
    public boolean frequent() {
      return board.refreshInterval().compareTo(Duration.ofSeconds(10)) < 0;
    }

    @Override
    public boolean lingers() {
      return looksAgainWithinRun(board.refreshInterval());
    }

    /**
     * Publishes when the board changed; a board refreshed every second looks again until just
     * before the next second's run: as soon as this instance applies a fold (at most every {@link
     * #MIN_GAP}), and otherwise every {@code publish-interval} (folds applied by another instance,
     * buckets moving on).
     */
    @Override
    public void run(JobContext context) throws InterruptedException {
      long end = ticker.read() + DrainLoop.RUN_FOR.toNanos();
      boolean again = !context.manual() && lingers();
      long seen = appliedFolds.count();
      long looked = ticker.read();
      boolean available = look(context);
      while (again && !context.cancelled() && ticker.read() < end) {
        long left = end - ticker.read();
        seen =
            appliedFolds.awaitAfter(
                seen, Duration.ofNanos(Math.min(left, publishInterval.toNanos())));
        // Folds back to back (a backlog) would otherwise have the board read and published after
        // each one.
        long sinceLook = ticker.read() - looked;
        if (sinceLook < MIN_GAP.toNanos()) {
          Thread.sleep(Duration.ofNanos(MIN_GAP.toNanos() - sinceLook));
        }
        if (ticker.read() < end && !context.cancelled()) {
          looked = ticker.read();
          available = look(context);
        }
      }
      if (!available) {
        // Nothing to serve yet (a new board before its first fold, or Redis lost its data before
        // anything was published here): the run fails, as a batch board's would.
        throw new BoardUnavailableException(board.name(), Duration.ofSeconds(1));
      }
    }

    /** Publishes what changed: the board, or a family's changed segment boards. */
    private boolean look(JobContext context) {
      return kind instanceof FamilyKind family
          ? family.publishChanged(board, context)
          : publishIfChanged(context);
    }

    /**
     * Publishes the board when it changed.
     *
     * @return false when Redis has none of the board's data and nothing was published yet
     */
    private boolean publishIfChanged(JobContext context) {
      Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
      BoardSnapshot held = publisher.current(board.name());
      int controlled = ControlsApplied.controlledIds(publisher.controls(board.name()), now).size();
      // A kind may rebuild a board without data here, under this run's lease.
      // A capped board reads deeper, then keeps at most its cap per author (AuthorCap).
      List<BoardEntry> entries = kind.entries(board, now, controlled + AuthorCap.extra(board));
      if (entries != null && board.maxPerAuthor() > 0) {
        entries =
            AuthorCap.cap(
                board, entries, board.size() + controlled + ControlsApplied.reserve(board));
      }
      if (entries == null) {
        // Redis lost the board (the folder restores it within a second or so): keep serving
        // what was published rather than an empty board.
        if (held == null) {
          return false;
        }
        context.report(held);
        return true;
      }
      context.throwIfCancelled();
      Published previous = last;
      if (held != null
          && previous != null
          && previous.version() == held.version()
          && !kind.changed(board, previous.candidates(), entries)
          && !context.manual()) {
        context.report(held);
        return true;
      }
      BoardSnapshot published = publisher.publish(board, now, entries, context.fence());
      // Only what this run built: a snapshot another publisher put live instead (built from other
      // candidates) must not let the next run skip publishing these.
      last =
          published.computedAt().equals(now) ? new Published(published.version(), entries) : null;
      context.report(published);
      return true;
    }
  }
}
