package io.hotrank.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * This instance's Redis Pub/Sub subscriptions, all through one listener container (one Pub/Sub
 * connection), whoever listens: the cache notices, the board notices.
 *
 * <p>Until the first subscription succeeds (Redis down at start), it is tried again every {@link
 * #RETRY}; once subscribed, the container and the Redis client resubscribe by themselves after a
 * disconnect. Pub/Sub drops what is published while a subscriber is disconnected, so each listener
 * covers such gaps its own way ({@link RedisReconnects}, periodic checks). Stopping waits at most
 * {@link #STOP_WAIT}: with Redis gone, unsubscribing can wait on a reply that never comes, and
 * shutdown must not. Listeners run on the container's threads and must hand long work off.
 * Thread-safe.
 */
@Component
public class RedisSubscriptions implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(RedisSubscriptions.class);

  /** How often a subscription that has not succeeded yet is tried again. */
  static final Duration RETRY = Duration.ofSeconds(1);

  /** How long stopping waits for the unsubscription. */
  static final Duration STOP_WAIT = Duration.ofSeconds(5);

  private record Listening(String channel, MessageListener listener) {}

  private final RedisConnectionFactory connections;
  private final List<Listening> listening = new CopyOnWriteArrayList<>();
  private volatile @Nullable RedisMessageListenerContainer container;
  private @Nullable ScheduledExecutorService retries;

  /** Whether a subscription failed since the start (retry thread only). */
  private boolean failedOnce;

  private volatile boolean running;

  RedisSubscriptions(RedisConnectionFactory connections) {
    this.connections = connections;
  }

  /**
   * Delivers the messages published on {@code channel} to {@code listener}, from the start of this
   * component on (at once when it is running).
   */
  public synchronized void subscribe(String channel, MessageListener listener) {
    listening.add(new Listening(channel, listener));
    RedisMessageListenerContainer current = container;
    if (current != null) {
      current.addMessageListener(listener, new ChannelTopic(channel));
    } else if (running) {
      open();
    }
  }

  @Override
  public synchronized void start() {
    running = true;
    if (!listening.isEmpty()) {
      open();
    }
  }

  /** Makes the container for the channels so far and starts trying to listen (under the lock). */
  private void open() {
    RedisMessageListenerContainer created = new RedisMessageListenerContainer();
    created.setConnectionFactory(connections);
    listening.forEach(l -> created.addMessageListener(l.listener(), new ChannelTopic(l.channel())));
    created.setRecoveryInterval(RETRY.toMillis());
    created.afterPropertiesSet();
    container = created;
    failedOnce = false;
    ScheduledExecutorService retrying =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("redis-subscriptions").daemon(true).factory());
    retries = retrying;
    retrying.scheduleWithFixedDelay(this::listen, 0, RETRY.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Starts listening unless it is; once listening, the container resubscribes by itself. Not under
   * the lock: with Redis away a start can take the client's connect timeout, and stopping must not
   * wait for that.
   */
  private void listen() {
    RedisMessageListenerContainer current = container;
    if (current == null || (current.isRunning() && current.isListening())) {
      return;
    }
    try {
      if (current.isRunning()) {
        current.stop(); // a start that failed leaves it running but not listening
      }
      current.start();
      log.info("Subscribed to Redis channels {}", channels());
    } catch (RuntimeException e) {
      if (!failedOnce) {
        log.warn(
            "Cannot subscribe to Redis channels {} yet ({}); trying again every {}",
            channels(),
            e.toString(),
            RETRY);
        failedOnce = true;
      } else {
        log.debug("Cannot subscribe to Redis channels yet ({})", e.toString());
      }
    }
  }

  private List<String> channels() {
    return listening.stream().map(Listening::channel).distinct().toList();
  }

  @Override
  public void stop() {
    RedisMessageListenerContainer current;
    ScheduledExecutorService retrying;
    synchronized (this) {
      running = false;
      retrying = retries;
      retries = null;
      current = container;
      container = null;
    }
    if (retrying != null) {
      retrying.shutdownNow();
      try {
        // a subscription in progress finishes before the container is stopped under it
        retrying.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (current == null) {
      return;
    }
    Thread stopper =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    current.stop();
                    current.destroy();
                  } catch (Exception e) {
                    log.debug("Redis subscriptions did not stop cleanly ({})", e.toString());
                  }
                });
    try {
      if (!stopper.join(STOP_WAIT)) {
        log.warn(
            "Redis subscriptions still unsubscribing after {}; shutting down without waiting",
            STOP_WAIT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
