package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardSink;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.BoardType;
import io.hotrank.board.BoardUnavailableException;
import io.hotrank.board.ControlsApplied;
import io.hotrank.item.CounterStore;
import io.hotrank.item.Item;
import io.hotrank.job.DrainLoop;
import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.support.CronExpression;

/**
 * The jobs of realtime boards. {@code board-<name>} (on the board's refresh, every second by
 * default, and then within the second after each fold this instance applies and every {@code
 * hotrank.realtime.publish-interval}) reads the board's top from Redis, drops deleted items,
 * attaches display fields and counters, orders ties by createdAt then id (newest first), and
 * publishes it through the same path as batch boards (local snapshot, Redis, database, ETag, static
 * export), unless it is unchanged. {@code window-<name>} builds a window board's snapshot once per
 * bucket: it fires every second under a per-run lease and builds only when a bucket has ended since
 * the last build.
 */
final class RealtimeJobs implements JobSource {

  private static final Logger log = LoggerFactory.getLogger(RealtimeJobs.class);
  private static final CronExpression EVERY_SECOND = CronExpression.parse("* * * * * *");

  /** The least time between two looks at a board within a run. */
  private static final Duration MIN_GAP = Duration.ofMillis(50);

  /** Over-fetch rounds when deleted items leave a page short. */
  private static final int FETCH_ROUNDS = 4;

  private final List<BoardDefinition> boards;
  private final WindowStore windows;
  private final LeaderboardStore leaderboards;
  private final CounterStore counters;
  private final BoardSink publisher;
  private final Clock clock;
  private final Ticker ticker;
  private final Duration publishInterval;
  private final MeterRegistry meters;
  private final AppliedFolds appliedFolds;
  private final LiveBoards liveBoards;

  RealtimeJobs(
      List<BoardDefinition> boards,
      WindowStore windows,
      LeaderboardStore leaderboards,
      CounterStore counters,
      BoardSink publisher,
      Clock clock,
      Ticker ticker,
      RealtimeProperties properties,
      MeterRegistry meters,
      AppliedFolds appliedFolds,
      LiveBoards liveBoards) {
    this.boards = boards;
    this.windows = windows;
    this.leaderboards = leaderboards;
    this.counters = counters;
    this.publisher = publisher;
    this.clock = clock;
    this.ticker = ticker;
    this.publishInterval = properties.publishInterval();
    this.meters = meters;
    this.appliedFolds = appliedFolds;
    this.liveBoards = liveBoards;
  }

  /** The name of a realtime board's publish job. */
  static String publishJobName(String board) {
    return "board-" + board;
  }

  /** The name of a window board's snapshot job. */
  static String buildJobName(String board) {
    return "window-" + board;
  }

  @Override
  public List<JobDefinition> jobs() {
    List<JobDefinition> jobs = new ArrayList<>();
    for (BoardDefinition board : boards) {
      jobs.add(new JobDefinition(new PublishJob(board), board.cron()));
      if (board.type() == BoardType.WINDOW) {
        jobs.add(new JobDefinition(new BuildJob(board), EVERY_SECOND));
      }
    }
    return jobs;
  }

  /**
   * The board's candidates now: its top from Redis, over-fetched until {@code size} live items plus
   * one per live operator control and a reserve ({@link ControlsApplied#RESERVE}) are found or
   * Redis has no more, so that blocks and pins leave the board full. A controlled item outside that
   * top is looked up by the publisher (a leaderboard's score is its counter, a window board's
   * pinned item shows 0 until it enters the top; a window board's boosted item outside the top the
   * snapshot keeps is not listed).
   */
  private List<BoardEntry> entries(BoardDefinition board, long nowMillis, int controlled) {
    int wanted = board.size() + controlled + ControlsApplied.RESERVE;
    int fetch = Math.max(RealtimeFolds.keep(board), wanted);
    List<BoardEntry> entries = List.of();
    for (int round = 0; round < FETCH_ROUNDS; round++) {
      List<Scored> top =
          board.type() == BoardType.WINDOW
              ? windows.top(board, nowMillis, fetch)
              : leaderboards.top(board, fetch);
      entries = cards(board, top);
      if (entries.size() >= wanted || top.size() < fetch) {
        break;
      }
      fetch *= 4;
    }
    return entries.size() > wanted ? entries.subList(0, wanted) : entries;
  }

  /**
   * Whether Redis holds the board's data (it has applied a fold, and is not replaying its window
   * from the log), rather than nothing or a part.
   */
  private boolean hasData(BoardDefinition board) {
    return board.type() == BoardType.WINDOW
        ? windows.applied(board) != null && !windows.isReplaying(board)
        : !leaderboards.applied(board).contains(null);
  }

  /** The live items of {@code top} as entries, best first; ties newest first, then highest id. */
  private List<BoardEntry> cards(BoardDefinition board, List<Scored> top) {
    Map<Long, CounterStore.Card> cards =
        counters.cards(board.biz(), top.stream().map(Scored::itemId).toList());
    if (board.type() == BoardType.LEADERBOARD) {
      // A deleted item keeps its last value in its shard, since no fold changes it again: it
      // would hold a place in the shard's top that a live item should have.
      List<Long> gone =
          top.stream().map(Scored::itemId).filter(id -> !cards.containsKey(id)).toList();
      if (!gone.isEmpty()) {
        leaderboards.remove(board, gone);
      }
    }
    record Ranked(Scored scored, CounterStore.Card card) {}
    List<Ranked> live = new ArrayList<>();
    for (Scored s : top) {
      CounterStore.Card card = cards.get(s.itemId());
      if (card != null) {
        live.add(new Ranked(new Scored(s.itemId(), rounded(s.score())), card));
      }
    }
    live.sort(
        Comparator.comparingDouble((Ranked r) -> r.scored().score())
            .reversed()
            .thenComparing(r -> r.card().createdAtMillis(), Comparator.reverseOrder())
            .thenComparing(r -> r.card().itemId(), Comparator.reverseOrder()));
    List<BoardEntry> entries = new ArrayList<>(live.size());
    for (Ranked r : live) {
      entries.add(
          new BoardEntry(
              entries.size() + 1,
              board.biz(),
              r.card().itemId(),
              r.scored().score(),
              r.card().title(),
              r.card().authorId(),
              Instant.ofEpochMilli(r.card().createdAtMillis()),
              Item.Counts.of(r.card().counts())));
    }
    return entries;
  }

  /**
   * Sums of decayed weights carry floating-point noise (0.05 + 0.1 is not 0.15); rounded to nine
   * significant digits, equal sums tie as they should and fall to the createdAt order.
   */
  static double rounded(double score) {
    if (score == 0 || !Double.isFinite(score)) {
      return score;
    }
    return new BigDecimal(score).round(new MathContext(9)).doubleValue();
  }

  /**
   * Whether a run of a board refreshed this often looks for changes again until just before the
   * next run: when it runs every second (the default) or more often.
   */
  static boolean looksAgainWithinRun(Duration refreshInterval) {
    return refreshInterval.compareTo(Duration.ofSeconds(1)) <= 0;
  }

  /**
   * Whether two candidate lists of a live board show the same board: the same items in the same
   * order with the same counters and fields. Scores are left out: a decay board's scores fall every
   * instant while its order holds, and it is published again when its order or counters change, not
   * every second. (A window board's scores change while its order holds too, but as buckets leave
   * its window, which readers must see.)
   */
  static boolean sameOrder(List<BoardEntry> a, List<BoardEntry> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).withControl(0, null).equals(b.get(i).withControl(0, null))) {
        return false;
      }
    }
    return true;
  }

  /** The candidates a publish was given and the version it served afterwards. */
  private record Published(long version, List<BoardEntry> candidates) {}

  /** Publishes a realtime board's read snapshot. */
  private final class PublishJob implements Job {

    private final BoardDefinition board;

    /**
     * What this instance published last: unchanged candidates need no new version unless the held
     * snapshot is another's (an operator's control changed it, which the next publish must keep).
     */
    private volatile @Nullable Published last;

    PublishJob(BoardDefinition board) {
      this.board = board;
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
      boolean available = publishIfChanged(context);
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
          available = publishIfChanged(context);
        }
      }
      if (!available) {
        // Nothing to serve yet (a new board before its first fold, or Redis lost its data before
        // anything was published here): the run fails, as a batch board's would.
        throw new BoardUnavailableException(board.name(), Duration.ofSeconds(1));
      }
    }

    /**
     * Publishes the board when it changed.
     *
     * @return false when Redis has none of the board's data and nothing was published yet
     */
    private boolean publishIfChanged(JobContext context) {
      Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
      BoardSnapshot held = publisher.current(board.name());
      boolean live = board.type() == BoardType.LIVE;
      int controlled = ControlsApplied.controlledIds(publisher.controls(board.name()), now).size();
      // A live board without data is rebuilt by its read, under this run's lease.
      List<BoardEntry> entries =
          live
              ? liveBoards.entries(board, now, controlled)
              : hasData(board) ? entries(board, now.toEpochMilli(), controlled) : null;
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
          && (live
              ? sameOrder(previous.candidates(), entries)
              : previous.candidates().equals(entries))
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
      long size = windows.build(board, clock.millis(), RealtimeFolds.keep(board));
      if (size >= 0) {
        sample.stop(meters.timer("hotrank.realtime.window.builds", "board", board.name()));
        log.debug("Window board '{}' snapshot built: {} members", board.name(), size);
      }
      context.report(size);
    }
  }
}
