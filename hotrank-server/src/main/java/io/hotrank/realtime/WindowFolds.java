package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardKind;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.support.CronExpression;

/**
 * How window boards and window families follow the folds ({@link WindowData} holds either's Redis
 * data): each fold adds its events' weights to per-bucket sorted sets, and a job merges the
 * window's buckets into snapshots once per bucket ({@code window-<name>}, every second under a
 * per-run lease, building only when a bucket has ended since the last build).
 *
 * <p>A board found behind replays the folds it missed from {@link FoldHistory}, at most {@link
 * RealtimeFolds#MAX_REPLAY} per call, the rest on the next fold or idle second. A board with no
 * data (Redis restarted empty, or was flushed) replays the folds of its window from the log, and is
 * not published from a part of its window until the replay is through; one that holds a fold the
 * log never reached (it belongs to another database) is reset and replayed. Thread-safe.
 */
final class WindowFolds {

  private static final Logger log = LoggerFactory.getLogger(WindowFolds.class);
  private static final CronExpression EVERY_SECOND = CronExpression.parse("* * * * * *");

  /** How long a replay's mark outlives its last step (an instance that died mid-replay). */
  private static final Duration REPLAY_MARK = Duration.ofSeconds(30);

  private final WindowData store;
  private final FoldHistory history;
  private final Clock clock;
  private final Consumer<BoardDefinition> afterReplay;
  private final MeterRegistry meters;

  WindowFolds(WindowData store, FoldHistory history, Clock clock, MeterRegistry meters) {
    this(store, history, clock, meters, board -> {});
  }

  /**
   * @param afterReplay run once a board's window was replayed from the log and marked so, e.g. to
   *     publish again what the replay may have left empty
   */
  WindowFolds(
      WindowData store,
      FoldHistory history,
      Clock clock,
      MeterRegistry meters,
      Consumer<BoardDefinition> afterReplay) {
    this.store = store;
    this.history = history;
    this.clock = clock;
    this.meters = meters;
    this.afterReplay = afterReplay;
  }

  /** The name of a window board's snapshot job. */
  static String buildJobName(String board) {
    return "window-" + board;
  }

  /** Applies a committed fold; catches up first when the board missed folds before it. */
  void apply(BoardDefinition board, Fold fold) {
    long now = clock.millis();
    int keep = ScoredEntries.keep(board);
    String outcome = store.apply(board, fold.foldNo(), fold.foldNo() - 1, fold.events(), now, keep);
    if (outcome.startsWith("behind:") && catchUp(board, fold.foldNo() - 1, history.lastFoldNo())) {
      store.apply(board, fold.foldNo(), fold.foldNo() - 1, fold.events(), now, keep);
    }
  }

  /** Brings the board up to the log's last fold, or replays its window when Redis lost it. */
  void catchUp(BoardDefinition board, long lastFoldNo) {
    catchUp(board, lastFoldNo, lastFoldNo);
  }

  /**
   * Replays folds until the board has applied {@code upTo}.
   *
   * @param lastFoldNo the log's last fold, to tell a board from another log
   * @return whether it has
   */
  boolean catchUp(BoardDefinition board, long upTo, long lastFoldNo) {
    long now = clock.millis();
    Long applied = store.applied(board);
    // Read after the board's: another instance may have folded and applied since lastFoldNo.
    if (applied != null && applied > lastFoldNo && applied > history.lastFoldNo()) {
      log.warn(
          "Window board '{}' holds fold {} but the event log's last is {}: resetting it",
          board.name(),
          applied,
          lastFoldNo);
      store.reset(board, now);
      applied = null;
    }
    if (applied != null && applied >= upTo) {
      return true;
    }
    boolean replaying = applied == null || store.isReplaying(board);
    long from;
    if (applied == null) {
      Duration bucket = board.kind(BoardKind.Window.class).bucket();
      long since = now - board.window().toMillis() - bucket.toMillis() - WindowStore.FUTURE_MILLIS;
      from = Math.min(history.firstFoldSince(since), upTo);
      log.info(
          "Window board '{}' has no data in Redis: replaying folds {} to {} from the event log",
          board.name(),
          from,
          upTo);
    } else {
      from = applied + 1;
    }
    if (replaying) {
      // Not published from a part of its window until the replay is through.
      store.replaying(board, true, REPLAY_MARK);
    }
    Long previous = applied;
    for (long f = from; f <= upTo; f++) {
      if (f - from >= RealtimeFolds.MAX_REPLAY) {
        return false;
      }
      List<FoldedEvent> events = f == 0 ? List.of() : history.eventsOf(f);
      if (events == null) {
        // Pruned (older than the retention, so older than any window), or a fold of a source no
        // longer configured (switched since: its window misses those events).
        events = List.of();
        previous = null;
      }
      String outcome = store.apply(board, f, previous, events, now, ScoredEntries.keep(board));
      if (outcome.startsWith("behind:")) {
        return false; // another instance is replaying it too; the next call goes on
      }
      previous = f;
    }
    if (replaying) {
      store.replaying(board, false, REPLAY_MARK);
      store.replayed(board);
      afterReplay.accept(board);
      log.info("Window board '{}' replayed up to fold {}", board.name(), upTo);
    }
    return true;
  }

  /** Drops the board's Redis data and replays its window from the event log. */
  boolean rebuild(BoardDefinition board, String why) {
    log.info("Window board '{}' replayed from the event log because {}", board.name(), why);
    store.reset(board, clock.millis());
    long last = history.lastFoldNo();
    for (int round = 0; round < 10_000 && !catchUp(board, last, last); round++) {}
    return false;
  }

  /** The board's snapshot job. */
  List<JobDefinition> jobs(BoardDefinition board) {
    return List.of(new JobDefinition(new BuildJob(board), EVERY_SECOND));
  }

  /**
   * A board whose Redis data is lost is replayed from the event log: the log must keep its whole
   * window (plus a bucket, plus the 5 minutes an event may lie ahead).
   */
  void checkRetention(BoardDefinition board, Duration retention) {
    Duration bucket = board.kind(BoardKind.Window.class).bucket();
    if (board.window().plus(bucket).plusMinutes(5).compareTo(retention) > 0) {
      throw new IllegalStateException(
          "Window board '"
              + board.name()
              + "' spans "
              + board.window()
              + " but hotrank.ingest.retention="
              + retention
              + " keeps less of the event log than the window, a bucket and 5 minutes: it"
              + " could not be rebuilt after Redis loses its data; raise the retention");
    }
  }

  /** Builds a window board's snapshot when a bucket has ended since the last build. */
  private final class BuildJob implements Job {

    private final BoardDefinition board;

    BuildJob(BoardDefinition board) {
      this.board = board;
    }

    @Override
    public String name() {
      return buildJobName(board.name());
    }

    @Override
    public boolean frequent() {
      return true;
    }

    @Override
    public void run(JobContext context) {
      Timer.Sample sample = Timer.start(meters);
      long size = store.build(board, clock.millis(), ScoredEntries.keep(board));
      if (size >= 0) {
        sample.stop(meters.timer("hotrank.realtime.window.builds", "board", board.name()));
        log.debug("Window board '{}' snapshots built: {}", board.name(), size);
      }
      context.report(size);
    }
  }
}
