package io.hotrank.cache;

import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.RedisReconnects;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * Notices between instances over one Redis Pub/Sub channel ({@code <prefix>cache-notices}):
 * invalidations of cached entries and hot-key announcements. A notice is "{@code <topic>
 * <payload>}"; a topic may have several subscribers, and the publishing instance receives its own
 * notices too.
 *
 * <p>Pub/Sub drops what is published while a subscriber is disconnected. So subscribers also
 * register what to do after a reconnect ({@link RedisReconnects}), typically drop their local
 * copies. Until the first subscription succeeds (Redis down at start), it is retried every second.
 * Thread-safe.
 */
@Component
public class CacheNotices implements MessageListener, SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(CacheNotices.class);
  private static final Duration RETRY = Duration.ofSeconds(1);

  private final StringRedisTemplate redis;
  private final RedisConnectionFactory connections;
  private final String channel;
  private final Map<String, List<Consumer<String>>> subscribers = new ConcurrentHashMap<>();
  private @Nullable RedisMessageListenerContainer container;
  private @Nullable ScheduledExecutorService retries;
  private volatile boolean running;

  CacheNotices(
      StringRedisTemplate redis,
      RedisConnectionFactory connections,
      HotrankRedisProperties properties) {
    this.redis = redis;
    this.connections = connections;
    this.channel = properties.keyPrefix() + "cache-notices";
  }

  /** Delivers the payloads of a topic's notices to this subscriber, on the listener's thread. */
  public void subscribe(String topic, Consumer<String> subscriber) {
    if (topic.contains(" ")) {
      throw new IllegalArgumentException("a notice topic has no space: '" + topic + "'");
    }
    subscribers.computeIfAbsent(topic, t -> new CopyOnWriteArrayList<>()).add(subscriber);
  }

  /**
   * Announces a notice to every instance, this one included.
   *
   * @throws org.springframework.dao.DataAccessException if Redis does not take it
   */
  public void publish(String topic, String payload) {
    redis.convertAndSend(channel, topic + " " + payload);
  }

  @Override
  public void onMessage(Message message, byte @Nullable [] pattern) {
    String notice = new String(message.getBody(), StandardCharsets.UTF_8);
    int space = notice.indexOf(' ');
    List<Consumer<String>> told = space < 0 ? null : subscribers.get(notice.substring(0, space));
    if (told == null) {
      return;
    }
    for (Consumer<String> subscriber : told) {
      try {
        subscriber.accept(notice.substring(space + 1));
      } catch (RuntimeException e) {
        log.warn("Cache notice '{}' not applied: {}", notice, e.toString());
      }
    }
  }

  @Override
  public synchronized void start() {
    RedisMessageListenerContainer listening = new RedisMessageListenerContainer();
    listening.setConnectionFactory(connections);
    listening.addMessageListener(this, new ChannelTopic(channel));
    listening.setRecoveryInterval(RETRY.toMillis());
    listening.afterPropertiesSet();
    container = listening;
    retries =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "cache-notices");
              thread.setDaemon(true);
              return thread;
            });
    retries.scheduleWithFixedDelay(this::subscribe, 0, RETRY.toMillis(), TimeUnit.MILLISECONDS);
    running = true;
  }

  /** Starts listening unless it is; once listening, the container resubscribes by itself. */
  private void subscribe() {
    RedisMessageListenerContainer listening = container;
    if (listening == null || (listening.isRunning() && listening.isListening())) {
      return;
    }
    try {
      if (listening.isRunning()) {
        listening.stop(); // a start that failed leaves it running but not listening
      }
      listening.start();
      log.info("Subscribed to cache notices on '{}'", channel);
    } catch (RuntimeException e) {
      log.debug("Cannot subscribe to cache notices yet ({})", e.toString());
    }
  }

  @Override
  public synchronized void stop() {
    running = false;
    if (retries != null) {
      retries.shutdownNow();
    }
    RedisMessageListenerContainer listening = container;
    if (listening != null) {
      // With Redis gone, unsubscribing can wait on a reply that never comes; shutdown must not.
      Thread stopper =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      listening.stop();
                      listening.destroy();
                    } catch (Exception e) {
                      log.debug("Cache notices did not stop cleanly ({})", e.toString());
                    }
                  });
      try {
        stopper.join(Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
