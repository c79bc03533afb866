package io.hotrank.idempotency;

import io.hotrank.redis.RedisReadGuard;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Redis as a read-through cache of kept answers: a repeat of a key looks here first, and an answer
 * read from the database is put here for the rest of its retention, so that a client retrying in a
 * loop costs the database one read. Every call goes through the read guard; a Redis that fails or
 * is slow is passed over (the database answers), never an error of the request.
 */
final class AnswerCache {

  private static final Logger log = LoggerFactory.getLogger(AnswerCache.class);

  /** The value kept in Redis. */
  record Cached(String fingerprint, int status, Map<String, String> headers, String body) {}

  private final StringRedisTemplate redis;
  private final RedisReadGuard guard;
  private final String prefix;
  private final JsonMapper json = JsonMapper.builder().build();

  AnswerCache(StringRedisTemplate redis, RedisReadGuard guard, String keyPrefix) {
    this.redis = redis;
    this.guard = guard;
    this.prefix = keyPrefix + "idem:";
  }

  Optional<KeptAnswer> get(String id) {
    try {
      String value = guard.read("idempotency cache", () -> redis.opsForValue().get(prefix + id));
      if (value == null) {
        return Optional.empty();
      }
      Cached c = json.readValue(value, Cached.class);
      return Optional.of(
          new KeptAnswer(
              c.fingerprint(), c.status(), c.headers(), c.body().getBytes(StandardCharsets.UTF_8)));
    } catch (RuntimeException e) {
      log.debug("Reading the idempotency cache failed: {}", e.toString());
      return Optional.empty();
    }
  }

  void put(String id, KeptAnswer answer, Duration ttl) {
    if (ttl.toMillis() <= 0) {
      return;
    }
    String value =
        json.writeValueAsString(
            new Cached(answer.fingerprint(), answer.status(), answer.headers(), answer.bodyText()));
    try {
      // A best-effort write, bounded and broken like a read: the request must not wait on a slow
      // Redis longer than a read would, and a failing Redis is passed over by both alike.
      guard.read(
          "idempotency cache",
          () -> {
            redis.opsForValue().set(prefix + id, value, ttl);
            return null;
          });
    } catch (RuntimeException e) {
      log.debug("Writing the idempotency cache failed: {}", e.toString());
    }
  }
}
