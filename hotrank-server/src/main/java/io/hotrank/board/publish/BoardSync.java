package io.hotrank.board.publish;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardKey;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.redis.RedisReadGuard;
import io.hotrank.redis.RedisReconnects;
import io.hotrank.redis.RedisSubscriptions;
import io.hotrank.redis.RedisUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.Message;
import org.springframework.stereotype.Component;

/**
 * Keeps this instance's local snapshots converged with what any instance publishes.
 *
 * <ul>
 *   <li>Notices: every publish announces "{@code <board> <version>}" on a Redis channel (listened
 *       to through the instance's {@link RedisSubscriptions}); a notice newer than the local
 *       version fetches the payload from Redis at once.
 *   <li>Periodic check, every {@code hotrank.board.check-interval}: Pub/Sub drops messages while a
 *       subscriber is disconnected, so each board's versions in Redis and in the database are
 *       compared with the local one.
 *   <li>Reconnect: when the Redis client reconnects after losing a connection, or connects while
 *       reads are failing ({@link RedisReconnects}), the read breaker may probe at once and the
 *       check runs at once. A notice, too, proves Redis answers again.
 * </ul>
 *
 * Fetches run on background threads (one for notices, one for checks, so a slow database never
 * delays a notice), never on a request thread. Thread-safe.
 */
@Component
class BoardSync implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(BoardSync.class);

  private final BoardRegistry registry;
  private final LocalBoards local;
  private final SnapshotSources sources;
  private final BoardRedisStore redis;
  private final BoardSnapshotStore database;
  private final RedisReadGuard guard;

  private final Duration checkInterval;
  private final Set<String> pending = ConcurrentHashMap.newKeySet();
  private @Nullable ScheduledExecutorService worker;

  /** Fetches announced versions; separate from {@link #worker}, whose checks may wait on the DB. */
  private @Nullable ExecutorService noticeFetcher;

  private volatile boolean running;

  BoardSync(
      BoardRegistry registry,
      LocalBoards local,
      SnapshotSources sources,
      BoardRedisStore redis,
      BoardSnapshotStore database,
      RedisReadGuard guard,
      RedisReconnects reconnects,
      RedisSubscriptions subscriptions,
      BoardProperties properties) {
    this.registry = registry;
    this.local = local;
    this.sources = sources;
    this.redis = redis;
    this.database = database;
    this.guard = guard;
    reconnects.whenReconnected(this::reconnected);
    if (properties.notices()) {
      subscriptions.subscribe(redis.channel(), this::onMessage);
    }
    this.checkInterval = properties.checkInterval();
  }

  @Override
  public synchronized void start() {
    worker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "board-sync");
              thread.setDaemon(true);
              return thread;
            });
    noticeFetcher =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, "board-notices");
              thread.setDaemon(true);
              return thread;
            });
    long period = checkInterval.toMillis();
    worker.scheduleWithFixedDelay(this::checkAll, period, period, TimeUnit.MILLISECONDS);
    running = true;
    log.info(
        "Board sync: Pub/Sub notices on '{}', version check every {}",
        redis.channel(),
        checkInterval);
  }

  /** Redis came back: probe it now and check every board (notices may have been missed). */
  private void reconnected() {
    ScheduledExecutorService checks = worker;
    if (running && checks != null) {
      checks.execute(
          () -> {
            guard.redisSeemsBack();
            checkAll();
          });
    }
  }

  @Override
  public synchronized void stop() {
    running = false;
    if (noticeFetcher != null) {
      noticeFetcher.shutdownNow();
    }
    if (worker != null) {
      worker.shutdownNow();
      try {
        // a check in progress finishes (bounded) before what it reads is stopped under it
        worker.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /**
   * A publish notice: "{@code <key> <version>}", the key a board's name or a segment board's {@code
   * <name>/<segment>} (a segment may hold spaces: the version is after the last one). A segment
   * board is fetched only if held here: the others are read when asked for.
   */
  private void onMessage(Message message, byte @Nullable [] pattern) {
    String notice = new String(message.getBody(), StandardCharsets.UTF_8);
    int space = notice.lastIndexOf(' ');
    String board = space < 0 ? notice : notice.substring(0, space);
    BoardKey key = BoardKey.parse(board);
    if (space < 0 || registry.find(key.board()).isEmpty()) {
      return;
    }
    long version;
    try {
      version = Long.parseLong(notice.substring(space + 1));
    } catch (NumberFormatException e) {
      log.warn("Ignoring malformed board notice '{}'", notice);
      return;
    }
    guard.redisSeemsBack();
    if (key.segment() != null && local.get(board) == null) {
      return;
    }
    // Not running yet (the subscription may start first) or any more: the checks cover it. Asked
    // before pending.add, which a board must never be left in.
    if (running && version > local.version(board) && pending.add(board)) {
      noticeFetcher.execute(
          () -> {
            pending.remove(board);
            fetchAnnounced(board, version, 1);
          });
    }
  }

  /** How many times an announced version is fetched in all when Redis does not answer. */
  private static final int NOTICE_ATTEMPTS = 4;

  /** The wait before the first retry of an announced version; doubled for each next one. */
  private static final long NOTICE_RETRY_MILLIS = 100;

  /**
   * Fetches an announced version, and when Redis does not answer within the read timeout (a busy
   * moment), tries again after 100, 200 and 400 ms rather than leaving the board a version behind
   * until the periodic check.
   */
  private void fetchAnnounced(String board, long version, int attempt) {
    if (!running || version <= local.version(board) || refresh(board, attempt == NOTICE_ATTEMPTS)) {
      return;
    }
    ScheduledExecutorService checks = worker;
    ExecutorService fetcher = noticeFetcher;
    if (attempt < NOTICE_ATTEMPTS && checks != null && fetcher != null) {
      try {
        checks.schedule(
            () -> fetcher.execute(() -> fetchAnnounced(board, version, attempt + 1)),
            NOTICE_RETRY_MILLIS << (attempt - 1),
            TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException stopping) {
        // stopping: nothing to keep up to date
      }
    }
  }

  /** Compares every board with Redis and the database and fetches what is newer. */
  void checkAll() {
    for (BoardDefinition board : registry.all()) {
      if (!board.segmented()) {
        checkLogged(board.name());
      }
    }
    // Only the segment boards held here: the others are read from Redis or the database anyway.
    for (String segment : local.segmentKeys()) {
      checkLogged(segment);
    }
  }

  private void checkLogged(String board) {
    try {
      check(board);
    } catch (RuntimeException e) {
      log.warn("Board '{}': version check failed ({})", board, e.toString());
    }
  }

  /**
   * Brings one board up to the newest version Redis or the database holds. The database is asked
   * too, not only when Redis is down: a Redis restarted empty, or a publish whose Redis write
   * failed, leaves the newest version only there. When this instance holds a newer version than
   * Redis, it writes it back, so a Redis that lost its data heals without a recompute.
   */
  private void check(String board) {
    long held = local.version(board);
    long live = -1;
    try {
      live = sources.redisVersion(board);
      if (live > held) {
        refresh(board);
        return;
      }
    } catch (RedisUnavailableException e) {
      log.debug("Board '{}': Redis unavailable for the version check ({})", board, e.getMessage());
    }
    if (live > 0 && live == held && board.indexOf('/') >= 0) {
      // A segment board Redis holds as this instance does: no database query per held segment at
      // rest. A segment whose Redis write failed converges on its next publish instead.
      return;
    }
    if (sources.databaseVersion(board) > held) {
      sources.fromDatabase(board).ifPresent(snapshot -> install(snapshot, "db"));
    } else if (live >= 0 && live < held) {
      repairRedis(board, held);
    }
  }

  /**
   * Writes the database's snapshot of a board back to Redis, under the fencing token it was stored
   * with, when it is the version this instance holds: it goes live unless a higher token has
   * published since, so a write-back never hides a newer holder's board, and the bytes are the
   * stored ones, never a local copy that another publisher's content may share a number with. A
   * version the database does not hold (its write failed too) is left for the next publish.
   */
  private void repairRedis(String board, long held) {
    try {
      Optional<BoardSnapshot> stored = sources.fromDatabase(board);
      if (stored.isEmpty() || stored.get().version() != held) {
        return;
      }
      BoardSnapshot snapshot = stored.get();
      java.util.OptionalLong fence = database.fenceOf(board, snapshot.version());
      if (fence.isEmpty()) {
        return; // replaced meanwhile
      }
      BoardRedisStore.Outcome outcome = redis.publish(snapshot, fence.getAsLong());
      if (outcome == BoardRedisStore.Outcome.LIVE) {
        log.info(
            "Board '{}' v{}: Redis held an older version; wrote the stored one back",
            board,
            snapshot.version());
      } else {
        log.debug("Board '{}' v{}: write-back to Redis refused ({})", board, held, outcome);
      }
    } catch (RuntimeException e) {
      log.warn("Board '{}': could not write v{} back to Redis ({})", board, held, e.toString());
    }
  }

  private void refresh(String board) {
    refresh(board, true);
  }

  /**
   * Fetches a board's live version from Redis and installs it.
   *
   * @param last whether a failure is logged as this board's last attempt for now
   * @return false when Redis did not answer
   */
  private boolean refresh(String board, boolean last) {
    try {
      sources.fromRedis(board).ifPresent(snapshot -> install(snapshot, "redis"));
      return true;
    } catch (RedisUnavailableException e) {
      if (last) {
        log.warn(
            "Board '{}': newer version announced but Redis did not answer ({}); the periodic"
                + " check retries",
            board,
            e.getMessage());
      }
      return false;
    }
  }

  private void install(BoardSnapshot snapshot, String source) {
    if (local.install(snapshot)) {
      log.info("Board '{}' v{} installed from {}", snapshot.board(), snapshot.version(), source);
    }
  }
}
