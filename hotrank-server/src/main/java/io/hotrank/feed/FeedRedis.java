package io.hotrank.feed;

import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.LuaScripts;
import io.hotrank.redis.RedisRound;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * The following feeds' sorted sets in Redis, each under one key (so nothing needs one node for
 * several keys on a Cluster):
 *
 * <ul>
 *   <li>{@code <prefix>fo:<author>}, the author's outbox: every item of the author, newest kept;
 *   <li>{@code <prefix>fi:<user>}, the user's inbox: what fan-out pushed from the authors the user
 *       follows. It exists only for an active user: it expires when unread for {@code
 *       hotrank.feeds.active-for}, and fan-out skips a user without one. A sentinel member at -inf
 *       keeps an empty inbox in existence;
 *   <li>{@code <prefix>fl:{<user>}}, the authors the user follows, cached from the database (a
 *       sentinel 0 keeps an empty set); removed at each change of the user's follows, which also
 *       keeps reads that raced the change from caching their older answer;
 *   <li>{@code <prefix>fbig}, the authors with more followers than {@code push-threshold}, whose
 *       items are pulled from their outbox when a feed is read instead of being pushed.
 * </ul>
 */
@Component
class FeedRedis {

  static final String SENTINEL = "~";
  private static final RedisScript<Long> PUSH = LuaScripts.load("feed-push.lua", Long.class);
  private static final RedisScript<Long> FOLLOWING =
      LuaScripts.load("feed-following.lua", Long.class);

  /** Same-millisecond entries a page read takes at most from one set at the cursor's time. */
  private static final int TIES = 1000;

  private static final Duration AWAIT = Duration.ofSeconds(2);

  /** How long a change keeps reads that raced it from caching what they read. */
  private static final Duration CHANGE_MARK = Duration.ofSeconds(10);

  private final StringRedisTemplate redis;
  private final RedisRound round;
  private final String prefix;
  private final FeedProperties properties;

  @Autowired
  FeedRedis(
      StringRedisTemplate redis,
      HotrankRedisProperties redisProperties,
      FeedProperties properties) {
    this(redis, redisProperties.keyPrefix(), properties);
  }

  /** Feeds under keys of their own prefix (tests and the benchmark compare modes side by side). */
  FeedRedis(StringRedisTemplate redis, String prefix, FeedProperties properties) {
    this.redis = redis;
    this.round = new RedisRound(redis);
    this.prefix = prefix;
    this.properties = properties;
  }

  String inbox(long user) {
    return prefix + "fi:" + user;
  }

  String outbox(long author) {
    return prefix + "fo:" + author;
  }

  String following(long user) {
    return prefix + "fl:{" + user + "}";
  }

  /** Set for a few seconds by each change of a user's follows; see {@code feed-following.lua}. */
  String followingChanged(long user) {
    return prefix + "fl:{" + user + "}:w";
  }

  /** Caches the authors a user follows, unless the follows changed since they were read. */
  void cacheFollowing(long user, Set<Long> authors) {
    List<String> args = new ArrayList<>();
    args.add(Long.toString(properties.followingTtl().toMillis()));
    args.add("0");
    authors.forEach(a -> args.add(Long.toString(a)));
    redis.execute(
        FOLLOWING, List.of(following(user), followingChanged(user)), args.toArray(Object[]::new));
  }

  /** After a change of a user's follows: the cached set removed, later caching held off. */
  void followingChanged(long user, long author) {
    // The mark first: a read that cached between the two is then removed by the delete.
    redis.opsForValue().set(followingChanged(user), Long.toString(author), CHANGE_MARK);
    redis.delete(following(user));
  }

  /**
   * After {@code user} unfollowed {@code author}: the author's entries (those the outbox still
   * holds) removed from the user's inbox. Reads leave them out anyway; this is the cleanup.
   */
  void removeAuthorFromInbox(long user, long author) {
    Set<String> members = redis.opsForZSet().range(outbox(author), 0, -1);
    if (members != null && !members.isEmpty()) {
      redis.opsForZSet().remove(inbox(user), members.toArray());
    }
  }

  String big() {
    return prefix + "fbig";
  }

  RedisRound round() {
    return round;
  }

  /** Appends an item to its author's outbox (capped at {@code outbox-size}). */
  void addToOutbox(long author, FeedEntry entry) {
    redis.execute(
        PUSH,
        List.of(outbox(author)),
        "0",
        Integer.toString(properties.outboxSize()),
        Long.toString(entry.createdAt()),
        entry.member());
  }

  /** Marks an author as one whose items are pulled. */
  void markBig(long author) {
    redis.opsForSet().add(big(), Long.toString(author));
  }

  /** The authors whose items are pulled. */
  Set<Long> bigAuthors() {
    Set<String> members = redis.opsForSet().members(big());
    Set<Long> ids = new HashSet<>();
    if (members != null) {
      members.forEach(m -> ids.add(Long.parseLong(m)));
    }
    return ids;
  }

  /**
   * A part of a round that pushes {@code entries} into {@code user}'s inbox if the user has one.
   *
   * @param pushed told whether the inbox existed
   */
  RedisRound.Part pushToInbox(long user, List<FeedEntry> entries, boolean[] pushed, int slot) {
    byte[][] args = new byte[2 + 2 * entries.size()][];
    args[0] = RedisRound.bytes("1");
    args[1] = RedisRound.bytes(Integer.toString(properties.inboxSize()));
    int i = 2;
    for (FeedEntry e : entries) {
      args[i++] = RedisRound.bytes(Long.toString(e.createdAt()));
      args[i++] = RedisRound.bytes(e.member());
    }
    return commands -> {
      Supplier<Long> answer =
          RedisRound.script(
              commands,
              PUSH,
              ScriptOutputType.INTEGER,
              new byte[][] {RedisRound.bytes(inbox(user))},
              args);
      return () -> pushed[slot] = answer.get() >= 0;
    };
  }

  /**
   * After {@code user} followed {@code author}: the author's newest items into the user's inbox, if
   * the user has one and the author's items are pushed (a pulled author's are read anyway).
   */
  void backfill(long user, long author) {
    if (redis.opsForSet().isMember(big(), Long.toString(author))) {
      return;
    }
    List<FeedEntry> newest =
        readAll(List.of(outbox(author)), null, properties.inboxSize()).getFirst();
    if (!newest.isEmpty()) {
      round.run(List.of(pushToInbox(user, newest, new boolean[1], 0)));
    }
  }

  /** Creates an empty inbox (the sentinel), living {@code active-for} unless read again. */
  void createInbox(long user) {
    String key = inbox(user);
    redis.opsForZSet().add(key, SENTINEL, Double.NEGATIVE_INFINITY);
    redis.expire(key, properties.activeFor());
  }

  /**
   * The entries after {@code cursor} of each set, newest first, at most {@code limit} each (and the
   * same-millisecond ones of the cursor's time), in one round trip.
   */
  List<List<FeedEntry>> readAll(List<String> keys, @Nullable FeedEntry cursor, int limit) {
    List<List<FeedEntry>> runs = new ArrayList<>(keys.size());
    round.run(
        List.of(
            commands -> {
              List<Supplier<List<FeedEntry>>> answers = new ArrayList<>(keys.size());
              for (String key : keys) {
                answers.add(read(commands, key, cursor, limit, AWAIT));
              }
              return () -> answers.forEach(a -> runs.add(a.get()));
            }));
    return runs;
  }

  /**
   * Sends the read of one set's entries after {@code cursor} (all of them for null), newest first,
   * at most {@code limit} (and the same-millisecond ones of the cursor's time).
   *
   * @return what awaits the answer and gives the entries, the sentinel left out
   */
  private static Supplier<List<FeedEntry>> read(
      RedisClusterAsyncCommands<byte[], byte[]> commands,
      String key,
      @Nullable FeedEntry cursor,
      int limit,
      Duration timeout) {
    byte[] k = RedisRound.bytes(key);
    RedisFuture<List<ScoredValue<byte[]>>> ties =
        cursor == null
            ? null
            : commands.zrevrangebyscoreWithScores(
                k, Range.create(cursor.createdAt(), cursor.createdAt()), Limit.create(0, TIES));
    Range<Long> older =
        cursor == null
            ? Range.unbounded()
            : Range.from(Range.Boundary.unbounded(), Range.Boundary.excluding(cursor.createdAt()));
    RedisFuture<List<ScoredValue<byte[]>>> rest =
        commands.zrevrangebyscoreWithScores(k, older, Limit.create(0, limit));
    return () -> {
      List<FeedEntry> entries = new ArrayList<>();
      if (ties != null) {
        take(RedisRound.await(ties, timeout), cursor, entries);
      }
      take(RedisRound.await(rest, timeout), cursor, entries);
      return entries;
    };
  }

  private static void take(
      List<ScoredValue<byte[]>> values, @Nullable FeedEntry cursor, List<FeedEntry> into) {
    for (ScoredValue<byte[]> v : values) {
      String member = RedisRound.text(v.getValue());
      if (member.equals(SENTINEL) || Double.isInfinite(v.getScore())) {
        continue;
      }
      FeedEntry entry = new FeedEntry((long) v.getScore(), member);
      if (cursor == null || entry.after(cursor)) {
        into.add(entry);
      }
    }
  }

  /** Removes entries from an inbox (deleted items, unfollowed authors): cleanup, best effort. */
  void removeFromInbox(long user, List<FeedEntry> entries) {
    if (!entries.isEmpty()) {
      redis.opsForZSet().remove(inbox(user), entries.stream().map(FeedEntry::member).toArray());
    }
  }
}
