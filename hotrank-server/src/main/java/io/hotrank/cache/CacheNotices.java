package io.hotrank.cache;

import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.RedisReconnects;
import io.hotrank.redis.RedisSubscriptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Notices between instances over one Redis Pub/Sub channel ({@code <prefix>cache-notices}):
 * invalidations of cached entries and hot-key announcements. A notice is "{@code <topic>
 * <payload>}"; a topic may have several subscribers, and the publishing instance receives its own
 * notices too.
 *
 * <p>Pub/Sub drops what is published while a subscriber is disconnected. So subscribers also
 * register what to do after a reconnect ({@link RedisReconnects}), typically drop their local
 * copies. The channel is listened to through the instance's {@link RedisSubscriptions}, which
 * retries every second until the first subscription succeeds (Redis down at start). Thread-safe.
 */
@Component
public class CacheNotices {

  private static final Logger log = LoggerFactory.getLogger(CacheNotices.class);

  private final StringRedisTemplate redis;
  private final String channel;
  private final Map<String, List<Consumer<String>>> subscribers = new ConcurrentHashMap<>();

  CacheNotices(
      StringRedisTemplate redis,
      RedisSubscriptions subscriptions,
      HotrankRedisProperties properties) {
    this.redis = redis;
    this.channel = properties.keyPrefix() + "cache-notices";
    subscriptions.subscribe(channel, this::deliver);
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

  private void deliver(Message message, byte @Nullable [] pattern) {
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
}
