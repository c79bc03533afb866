package io.hotrank.board.publish;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.redis.RedisReadGuard;
import io.hotrank.redis.RedisReconnects;
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
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * Keeps this instance's local snapshots converged with what any instance publishes.
 *
 * <ul>
 *   <li>Notices: every publish announces "{@code <board> <version>}" on a Redis channel; a notice
 *       newer than the local version fetches the payload from Redis at once.
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
class BoardSync implements MessageListener, SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(BoardSync.class);

  private final BoardRegistry registry;
  private final LocalBoards local;
  private final SnapshotSources sources;
  private final BoardRedisStore redis;
  private final BoardSnapshotStore database;
  private final RedisReadGuard guard;
  private final RedisConnectionFactory connections;
  private final boolean noticesEnabled;

  /** Not a Spring bean: its start and stop are ours, so both can be bounded. */
  private @Nullable RedisMessageListenerContainer notices;

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
      RedisConnectionFactory connections,
      BoardProperties properties) {
    this.registry = registry;
    this.local = local;
    this.sources = sources;
    this.redis = redis;
    this.database = database;
    this.guard = guard;
    reconnects.whenReconnected(this::reconnected);
    this.connections = connections;
    this.noticesEnabled = properties.notices();
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
    if (noticesEnabled) {
      notices = new RedisMessageListenerContainer();
      notices.setConnectionFactory(connections);
      notices.addMessageListener(this, new ChannelTopic(redis.channel()));
      // Retry subscribing every second while Redis is away; the periodic check covers the gap.
      notices.setRecoveryInterval(1000);
      notices.afterPropertiesSet();
    }
    worker.execute(this::subscribe);
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
        // a subscribe() in progress finishes before the container is stopped under it
        worker.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (notices != null) {
      stopNotices(notices);
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** A publish notice: "{@code <board> <version>}". */
  @Override
  public void onMessage(Message message, byte[] pattern) {
    String[] notice = new String(message.getBody(), StandardCharsets.UTF_8).split(" ");
    if (notice.length != 2 || registry.find(notice[0]).isEmpty()) {
      return;
    }
    long version;
    try {
      version = Long.parseLong(notice[1]);
    } catch (NumberFormatException e) {
      log.warn("Ignoring malformed board notice '{}'", String.join(" ", notice));
      return;
    }
    String board = notice[0];
    guard.redisSeemsBack();
    if (version > local.version(board) && pending.add(board) && running) {
      noticeFetcher.execute(
          () -> {
            pending.remove(board);
            if (version > local.version(board)) {
              refresh(board);
            }
          });
    }
  }

  /**
   * Starts the notice subscription if it is not running. Once running, the container and the Redis
   * client resubscribe by themselves after a disconnect; until it first succeeds (Redis down at
   * startup), every periodic check tries again.
   */
  private void subscribe() {
    RedisMessageListenerContainer container = notices;
    if (container == null || (container.isRunning() && container.isListening())) {
      return;
    }
    try {
      // A start that failed leaves the container "running" but not listening: reset it first.
      if (container.isRunning()) {
        container.stop();
      }
      container.start();
      log.info("Subscribed to board notices on '{}'", redis.channel());
    } catch (RuntimeException e) {
      log.warn(
          "Cannot subscribe to board notices yet ({}); relying on the version check", e.toString());
    }
  }

  /**
   * Unsubscribes and releases the container, waiting at most five seconds: with Redis gone,
   * unsubscribing can wait on a reply that never comes, and shutdown must not.
   */
  private static void stopNotices(RedisMessageListenerContainer container) {
    Thread stopper =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    container.stop();
                    container.destroy();
                  } catch (Exception e) {
                    log.debug("Board notices did not stop cleanly ({})", e.toString());
                  }
                });
    try {
      if (!stopper.join(Duration.ofSeconds(5))) {
        log.warn("Board notices still unsubscribing after 5 s; shutting down without waiting");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Compares every board with Redis and the database and fetches what is newer. */
  void checkAll() {
    subscribe();
    for (BoardDefinition board : registry.all()) {
      try {
        check(board.name());
      } catch (RuntimeException e) {
        log.warn("Board '{}': version check failed ({})", board.name(), e.toString());
      }
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
    try {
      sources.fromRedis(board).ifPresent(snapshot -> install(snapshot, "redis"));
    } catch (RedisUnavailableException e) {
      log.warn(
          "Board '{}': newer version announced but Redis did not answer ({}); the periodic"
              + " check retries",
          board,
          e.getMessage());
    }
  }

  private void install(BoardSnapshot snapshot, String source) {
    if (local.install(snapshot)) {
      log.info("Board '{}' v{} installed from {}", snapshot.board(), snapshot.version(), source);
    }
  }
}
