package io.hotrank.feed;

import io.hotrank.core.topn.KWayMerge;
import io.hotrank.item.Item;
import io.hotrank.item.ItemReads;
import io.hotrank.item.ItemStore;
import io.hotrank.problem.Violations;
import io.hotrank.redis.RedisRound;
import io.hotrank.time.Ticker;
import io.hotrank.web.Cursors;
import io.lettuce.core.RedisFuture;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;

/**
 * A user's following feed: the items of the authors the user follows, newest first (ties by biz and
 * id, highest first), paged by a cursor on that order. Hybrid: the user's inbox holds what fan-out
 * pushed (authors up to {@code push-threshold} followers); the items of bigger authors are pulled
 * from their outboxes at read time; the sources are merged k-way. Read in two round trips: the
 * authors followed, the inbox's existence and (once a second) the pulled authors, then every
 * source's page.
 *
 * <p>What a page shows is checked at read time, so an unfollow or a deletion stops showing at once:
 * entries of authors no longer followed, and of items no longer live, are skipped and the page is
 * filled from further down (entries of items the database confirms deleted also leave the inbox; an
 * unfollow removes the author's entries itself). A user without an inbox (new, or inactive for
 * {@code active-for}) gets one rebuilt from the outboxes first ({@code
 * hotrank.feeds.inbox.rebuilds} counts them).
 */
@Service
class FollowingFeed {

  private static final Logger log = LoggerFactory.getLogger(FollowingFeed.class);

  /** How many rounds of sources a page may take when entries are skipped, at most. */
  private static final int MAX_ROUNDS = 8;

  /** How long the set of pulled authors is kept before it is read again. */
  private static final long BIG_REFRESH_NANOS = Duration.ofSeconds(1).toNanos();

  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final FeedRedis redis;
  private final FollowStore follows;
  private final ItemReads reads;
  private final Cursors cursors;
  private final FeedProperties properties;
  private final Counter rebuilds;
  private final Ticker ticker;
  private final ItemStore itemStore;
  private volatile Set<Long> big = Set.of();
  private volatile long bigReadAt = Long.MIN_VALUE;

  FollowingFeed(
      FeedRedis redis,
      FollowStore follows,
      ItemReads reads,
      Cursors cursors,
      FeedProperties properties,
      MeterRegistry meters,
      Ticker ticker,
      ItemStore itemStore) {
    this.ticker = ticker;
    this.itemStore = itemStore;
    this.redis = redis;
    this.follows = follows;
    this.reads = reads;
    this.cursors = cursors;
    this.properties = properties;
    this.rebuilds = meters.counter("hotrank.feeds.inbox.rebuilds");
  }

  /** Makes the next read fetch the pulled authors again (tests, after a fan-out). */
  void refreshPulledAuthors() {
    bigReadAt = Long.MIN_VALUE;
  }

  /** A page of {@code userId}'s following feed. */
  FeedPage page(long userId, @Nullable Integer limit, @Nullable String cursor) {
    Violations violations = new Violations();
    violations.check(userId > 0, "userId", "must be a positive id");
    int size = PageSizes.of(limit, properties, violations);
    violations.throwIfAny();
    String kind = "feed:" + userId;
    List<String> fields = cursors.decode(kind, cursor, 3);
    FeedEntry after =
        fields == null ? null : new FeedEntry(Cursors.longField(fields, 0), fields.get(1));
    int rank = fields == null ? 0 : (int) Cursors.longField(fields, 2);
    // Redis failing here is a storage failure (503 with Retry-After): the feed has no fallback.
    return read(userId, size, after, rank, kind);
  }

  private FeedPage read(long userId, int size, @Nullable FeedEntry after, int rank, String kind) {
    Set<Long> following = following(userId);
    List<Long> pulled = new ArrayList<>();
    for (long author : following) {
      if (big.contains(author)) {
        pulled.add(author);
      }
    }
    List<Item> found = new ArrayList<>();
    List<FeedEntry> foundEntries = new ArrayList<>();
    List<FeedEntry> missing = new ArrayList<>();
    FeedEntry position = after;
    boolean ended = false;
    for (int round = 0; round < MAX_ROUNDS && found.size() <= size; round++) {
      int want = size + 1 - found.size();
      List<List<FeedEntry>> runs = readSources(userId, pulled, position, want);
      List<FeedEntry> top = KWayMerge.mergeTop(runs, FeedEntry.NEWEST_FIRST, want);
      if (top.isEmpty()) {
        ended = true;
        break;
      }
      List<FeedEntry> merged = dedupe(top);
      Map<FeedEntry, Item> live = resolve(merged);
      for (FeedEntry e : merged) {
        Item item = live.get(e);
        if (item == null) {
          missing.add(e);
        } else if (following.contains(item.authorId())) {
          found.add(item);
          foundEntries.add(e);
        }
      }
      position = top.getLast();
      // Entries remain if a source gave all it was asked for, or the merge left some out.
      int fetched = runs.stream().mapToInt(List::size).sum();
      if (runs.stream().noneMatch(run -> run.size() >= want) && fetched == top.size()) {
        ended = true;
        break;
      }
    }
    try {
      redis.removeFromInbox(userId, deleted(missing));
    } catch (DataAccessException e) {
      // Cleanup only: the page is answered either way, the entries are left out again next time.
      log.debug("inbox of {} not cleaned: {}", userId, e.toString());
    }
    List<FeedItem> items = new ArrayList<>();
    for (int i = 0; i < Math.min(size, found.size()); i++) {
      items.add(FeedItem.of(rank + i + 1, found.get(i), null));
    }
    String next = null;
    if (found.size() > size) {
      next = cursor(kind, foundEntries.get(size - 1), rank + size);
    } else if (!ended && position != null) {
      // The rounds ran out on entries to leave out (a big unfollowed author's, say): the page is
      // short, but the feed goes on from the last entry looked at.
      next = cursor(kind, position, rank + found.size());
    }
    return new FeedPage(items, next);
  }

  private String cursor(String kind, FeedEntry at, int rank) {
    return cursors.encode(
        kind, List.of(Long.toString(at.createdAt()), at.member(), Integer.toString(rank)));
  }

  /**
   * Of the entries whose items the item cache did not find, those the database confirms deleted (or
   * never had): only those leave the inbox for good.
   */
  private List<FeedEntry> deleted(List<FeedEntry> missing) {
    if (missing.isEmpty()) {
      return missing;
    }
    Map<String, List<FeedEntry>> byBiz = new LinkedHashMap<>();
    missing.forEach(e -> byBiz.computeIfAbsent(e.biz(), b -> new ArrayList<>()).add(e));
    List<FeedEntry> gone = new ArrayList<>();
    byBiz.forEach(
        (biz, entries) -> {
          Map<Long, Boolean> flags =
              itemStore.deletedFlags(biz, entries.stream().map(FeedEntry::id).toList());
          for (FeedEntry e : entries) {
            if (flags.getOrDefault(e.id(), true)) {
              gone.add(e);
            }
          }
        });
    return gone;
  }

  /**
   * The authors {@code userId} follows, from Redis or else the database (then cached); makes sure
   * the user has an inbox, rebuilding it if not; refreshes the pulled authors once a second.
   */
  private Set<Long> following(long userId) {
    boolean refreshBig =
        bigReadAt == Long.MIN_VALUE || ticker.read() - bigReadAt > BIG_REFRESH_NANOS;
    List<Set<String>> members = new ArrayList<>();
    boolean[] inboxExists = new boolean[1];
    List<Set<String>> bigMembers = new ArrayList<>();
    redis
        .round()
        .run(
            List.of(
                commands -> {
                  RedisFuture<Set<byte[]>> set =
                      commands.smembers(RedisRound.bytes(redis.following(userId)));
                  RedisFuture<Long> exists = commands.exists(RedisRound.bytes(redis.inbox(userId)));
                  RedisFuture<Boolean> touched =
                      commands.pexpire(
                          RedisRound.bytes(redis.inbox(userId)), properties.activeFor().toMillis());
                  RedisFuture<Set<byte[]>> bigSet =
                      refreshBig ? commands.smembers(RedisRound.bytes(redis.big())) : null;
                  return () -> {
                    members.add(texts(RedisRound.await(set, TIMEOUT)));
                    inboxExists[0] = RedisRound.await(exists, TIMEOUT) == 1;
                    RedisRound.await(touched, TIMEOUT);
                    if (bigSet != null) {
                      bigMembers.add(texts(RedisRound.await(bigSet, TIMEOUT)));
                    }
                  };
                }));
    if (!bigMembers.isEmpty()) {
      Set<Long> ids = new HashSet<>();
      bigMembers.getFirst().forEach(m -> ids.add(Long.parseLong(m)));
      big = ids;
      bigReadAt = ticker.read();
    }
    Set<Long> following = new HashSet<>();
    if (members.getFirst().isEmpty()) {
      following.addAll(follows.authorsFollowedBy(userId));
      redis.cacheFollowing(userId, following);
    } else {
      members.getFirst().forEach(m -> following.add(Long.parseLong(m)));
      following.remove(0L);
    }
    if (!inboxExists[0]) {
      rebuildInbox(userId, following);
    }
    return following;
  }

  /**
   * Gives a returning (or new) user an inbox: first the empty inbox, so that fan-out from now on
   * pushes into it, then the newest entries of every followed author pushed, whose outbox already
   * holds every item fan-out handled before. An item fanned out meanwhile is in one or the other,
   * or both (an entry is held once).
   */
  private void rebuildInbox(long userId, Set<Long> following) {
    rebuilds.increment();
    redis.createInbox(userId);
    List<String> outboxes =
        following.stream().filter(a -> !big.contains(a)).map(redis::outbox).toList();
    List<List<FeedEntry>> runs = redis.readAll(outboxes, null, properties.inboxSize());
    List<FeedEntry> newest =
        KWayMerge.mergeTop(runs, FeedEntry.NEWEST_FIRST, properties.inboxSize());
    if (!newest.isEmpty()) {
      boolean[] done = new boolean[1];
      redis.round().run(List.of(redis.pushToInbox(userId, newest, done, 0)));
    }
  }

  /** Every source's entries after {@code position}: the inbox, then each pulled outbox. */
  private List<List<FeedEntry>> readSources(
      long userId, List<Long> pulled, @Nullable FeedEntry position, int want) {
    List<String> keys = new ArrayList<>(1 + pulled.size());
    keys.add(redis.inbox(userId));
    pulled.forEach(author -> keys.add(redis.outbox(author)));
    return redis.readAll(keys, position, want);
  }

  /** The merged order holds an entry pushed and pulled twice, side by side: keep one. */
  private static List<FeedEntry> dedupe(List<FeedEntry> merged) {
    List<FeedEntry> out = new ArrayList<>(merged.size());
    for (FeedEntry e : merged) {
      if (out.isEmpty() || !out.getLast().equals(e)) {
        out.add(e);
      }
    }
    return out;
  }

  /** The live items of the entries, from the item cache, one batch per biz. */
  private Map<FeedEntry, Item> resolve(List<FeedEntry> entries) {
    Map<String, List<FeedEntry>> byBiz = new LinkedHashMap<>();
    for (FeedEntry e : entries) {
      byBiz.computeIfAbsent(e.biz(), b -> new ArrayList<>()).add(e);
    }
    Map<FeedEntry, Item> live = new HashMap<>();
    for (Map.Entry<String, List<FeedEntry>> biz : byBiz.entrySet()) {
      Map<Long, FeedEntry> byId = new HashMap<>();
      biz.getValue().forEach(e -> byId.put(e.id(), e));
      for (Item item : reads.getAll(biz.getKey(), new ArrayList<>(byId.keySet())).items()) {
        live.put(byId.get(item.id()), item);
      }
    }
    return live;
  }

  private static Set<String> texts(Set<byte[]> values) {
    Set<String> out = new HashSet<>();
    values.forEach(v -> out.add(RedisRound.text(v)));
    return out;
  }
}
