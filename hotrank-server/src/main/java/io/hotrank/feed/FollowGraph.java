package io.hotrank.feed;

import io.hotrank.feed.FollowStore.Counts;
import io.hotrank.feed.FollowStore.Edge;
import io.hotrank.feed.FollowStore.Side;
import io.hotrank.problem.Violations;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.RedisReadGuard;
import io.hotrank.redis.RedisUnavailableException;
import io.hotrank.web.Cursors;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Follows and unfollows, and the cursor-paged lists of who follows whom. The graph is in the
 * database; each user's two counts are kept beside it and cached in Redis for {@code
 * hotrank.feeds.count-ttl}, removed from the cache once a change commits.
 */
@Service
class FollowGraph {

  private static final Logger log = LoggerFactory.getLogger(FollowGraph.class);

  /** How many times a follow change that lost a deadlock is tried in all. */
  private static final int ATTEMPTS = 5;

  /** One page of a list. */
  record Page(long userId, long count, List<Edge> items, @Nullable String nextCursor) {}

  private final FollowStore store;
  private final Cursors cursors;
  private final FeedProperties properties;
  private final TransactionTemplate tx;
  private final StringRedisTemplate redis;
  private final RedisReadGuard guard;
  private final String countKeyPrefix;
  private final Clock clock;
  private final FeedRedis feeds;

  FollowGraph(
      FollowStore store,
      Cursors cursors,
      FeedProperties properties,
      PlatformTransactionManager transactions,
      StringRedisTemplate redis,
      RedisReadGuard guard,
      HotrankRedisProperties redisProperties,
      Clock clock,
      FeedRedis feeds) {
    this.store = store;
    this.cursors = cursors;
    this.properties = properties;
    this.tx = new TransactionTemplate(transactions);
    this.tx.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
    this.redis = redis;
    this.guard = guard;
    this.countKeyPrefix = redisProperties.keyPrefix() + "fc:";
    this.clock = clock;
    this.feeds = feeds;
  }

  /** {@code userId} follows {@code authorId}; repeating it changes nothing. */
  void follow(long userId, long authorId) {
    checkPair(userId, authorId);
    Instant now = clock.instant();
    retryingDeadlocks(() -> store.follow(userId, authorId, now));
    // Also when nothing changed (which also marks the user's follows changed for a few seconds, so
    // a client repeating the same PUT keeps that user's follow set out of the cache meanwhile): a
    // retry after a crash between the commit and this must not leave
    // the caches stale or the inbox without the author's earlier items.
    forgetCounts(userId, authorId);
    try {
      feeds.backfill(userId, authorId);
    } catch (DataAccessException e) {
      log.warn(
          "{}'s inbox lacks {}'s earlier items until it is rebuilt: {}",
          userId,
          authorId,
          e.toString());
    }
  }

  /** {@code userId} no longer follows {@code authorId}; repeating it changes nothing. */
  void unfollow(long userId, long authorId) {
    checkPair(userId, authorId);
    retryingDeadlocks(() -> store.unfollow(userId, authorId));
    forgetCounts(userId, authorId);
    try {
      feeds.removeAuthorFromInbox(userId, authorId);
      // A follow that raced this unfollow may have backfilled before the removal: put it back.
      if (store.follows(userId, authorId)) {
        feeds.backfill(userId, authorId);
      }
    } catch (DataAccessException e) {
      log.debug(
          "{}'s inbox keeps {}'s entries (left out at read): {}", userId, authorId, e.toString());
    }
  }

  /** A page of the authors {@code userId} follows, or of the users following it. */
  Page page(Side side, long userId, @Nullable Integer limit, @Nullable String cursor) {
    Violations violations = new Violations();
    violations.check(userId > 0, "userId", "must be a positive id");
    int size = PageSizes.of(limit, properties, violations);
    violations.throwIfAny();
    String kind = side.name().toLowerCase(java.util.Locale.ROOT) + ":" + userId;
    List<String> fields = cursors.decode(kind, cursor, 2);
    Edge after =
        fields == null
            ? null
            : new Edge(
                Cursors.longField(fields, 1), Instant.ofEpochMilli(Cursors.longField(fields, 0)));
    List<Edge> rows = new ArrayList<>(store.page(side, userId, after, size + 1));
    String next = null;
    if (rows.size() > size) {
      rows.removeLast();
      Edge last = rows.getLast();
      next =
          cursors.encode(
              kind,
              List.of(Long.toString(last.since().toEpochMilli()), Long.toString(last.userId())));
    }
    Counts counts = counts(userId);
    return new Page(
        userId, side == Side.FOLLOWING ? counts.following() : counts.followers(), rows, next);
  }

  /** A user's counts: from Redis, else from the database (and then cached). */
  Counts counts(long userId) {
    String key = countKeyPrefix + userId;
    try {
      String cached = guard.read("follow counts", () -> redis.opsForValue().get(key));
      if (cached != null) {
        int colon = cached.indexOf(':');
        return new Counts(
            Long.parseLong(cached.substring(0, colon)),
            Long.parseLong(cached.substring(colon + 1)));
      }
    } catch (RedisUnavailableException e) {
      return store.counts(userId);
    }
    Counts counts = store.counts(userId);
    try {
      redis
          .opsForValue()
          .set(key, counts.following() + ":" + counts.followers(), properties.countTtl());
    } catch (DataAccessException e) {
      log.debug("follow counts of {} not cached: {}", userId, e.toString());
    }
    return counts;
  }

  /**
   * Runs one change in its own transaction, again when the database picked it as a deadlock's loser
   * (what InnoDB's manual asks of its clients), up to {@link #ATTEMPTS} times in all.
   */
  private boolean retryingDeadlocks(java.util.function.BooleanSupplier change) {
    for (int attempt = 1; ; attempt++) {
      try {
        boolean changed = Boolean.TRUE.equals(tx.execute(status -> change.getAsBoolean()));
        store.makeCommitsDurable();
        return changed;
      } catch (PessimisticLockingFailureException deadlocked) {
        if (attempt == ATTEMPTS) {
          throw deadlocked;
        }
        log.debug("follow change lost a deadlock, attempt {}: {}", attempt, deadlocked.toString());
      }
    }
  }

  private void forgetCounts(long userId, long authorId) {
    try {
      redis.delete(List.of(countKeyPrefix + userId, countKeyPrefix + authorId));
      feeds.followingChanged(userId, authorId);
    } catch (DataAccessException e) {
      log.warn(
          "follow counts of {} and {}, and whom {} follows, stay cached up to {} and {}: {}",
          userId,
          authorId,
          userId,
          properties.countTtl(),
          properties.followingTtl(),
          e.toString());
    }
  }

  private static void checkPair(long userId, long authorId) {
    Violations violations = new Violations();
    violations.check(userId > 0, "userId", "must be a positive id");
    violations.check(authorId > 0, "authorId", "must be a positive id");
    violations.check(authorId != userId, "authorId", "must not be the user itself");
    violations.throwIfAny();
  }
}
