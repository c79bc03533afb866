package io.hotrank.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.item.ItemOutbox;
import io.hotrank.item.ItemReads;
import io.hotrank.item.ItemRequest;
import io.hotrank.item.ItemService;
import io.hotrank.job.FaultPoints;
import io.hotrank.support.TestData;
import io.hotrank.support.TestEngines;
import io.hotrank.web.Cursors;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The following feed computed three ways over one graph and one set of items, each on Redis keys of
 * its own: push (every author's items pushed), pull (every author's pulled at read time) and hybrid
 * (authors over the threshold pulled). All three page to the same feed, which is the in-test
 * model's; a user who never read (inbox rebuilt on the first read) and one whose inbox expired get
 * it too.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "feed-modes",
      "spring.data.redis.url=${HOTRANK_TEST_REDIS_URL:}",
      // This test fans out by itself, per mode.
      "hotrank.feeds.fanout=false"
    })
@Tag("cluster")
class FollowingFeedModesTest {

  static {
    TestData.empty("feed-modes");
  }

  private static final String PREFIX = "hrtest:" + UUID.randomUUID() + ":";

  @DynamicPropertySource
  static void keyPrefix(DynamicPropertyRegistry registry) {
    registry.add("hotrank.redis.key-prefix", () -> PREFIX);
    TestEngines.redisClusterIfNamed(registry);
  }

  @Autowired ItemService items;
  @Autowired ItemReads reads;
  @Autowired ItemOutbox outbox;
  @Autowired FollowGraph graph;
  @Autowired FollowStore follows;
  @Autowired Cursors cursors;
  @Autowired FeedProperties properties;
  @Autowired StringRedisTemplate redis;
  @Autowired JdbcTemplate jdbc;
  @Autowired io.hotrank.time.Ticker ticker;
  @Autowired io.hotrank.item.ItemStore itemStore;

  private record Posted(String biz, long id, long author, Instant createdAt) {}

  @Test
  void pushPullAndHybrid_pageToTheSameFeed_theModelsOne() {
    TestEngines.exercised("H2");
    Random random = new Random(11);
    // 30 readers; authors 100..109: author 100 followed by all, 101 by 20, the rest by a few.
    Map<Long, Set<Long>> followed = new HashMap<>();
    for (long user = 1; user <= 30; user++) {
      Set<Long> authors = new HashSet<>();
      authors.add(100L);
      if (user <= 20) {
        authors.add(101L);
      }
      for (long a = 102; a < 110; a++) {
        if (random.nextInt(4) == 0) {
          authors.add(a);
        }
      }
      followed.put(user, authors);
      long reader = user;
      authors.forEach(a -> graph.follow(reader, a));
    }
    // 150 items over two bizes; times drawn from a small range, so that many share a millisecond.
    Instant base = Instant.parse("2026-11-30T00:00:00Z");
    List<Posted> posted = new ArrayList<>();
    for (long id = 1; id <= 150; id++) {
      String biz = id % 3 == 0 ? "video" : "article";
      long author = 100 + random.nextInt(10);
      Instant at = base.plusMillis(random.nextInt(60) * 1000L);
      items.create(new ItemRequest(biz, id, author, "item " + id, List.of(), null, at));
      posted.add(new Posted(biz, id, author, at));
    }
    Set<String> deleted = new HashSet<>();
    for (long id : List.of(7L, 30L, 77L)) {
      String biz = id % 3 == 0 ? "video" : "article";
      items.delete(biz, id);
      deleted.add(biz + ":" + id);
    }
    List<ItemOutbox.Entry> created = outbox.oldest(1000);
    assertThat(created).hasSize(150);

    Map<String, Map<Long, List<String>>> feeds = new LinkedHashMap<>();
    for (Map.Entry<String, Long> mode :
        Map.of("push", Long.MAX_VALUE, "pull", 0L, "hybrid", 10L).entrySet()) {
      FeedProperties settings = properties.withPushThreshold(mode.getValue());
      FeedRedis keys = new FeedRedis(redis, PREFIX + mode.getKey() + ":", settings);
      FanOut fanOut =
          new FanOut(
              outbox, follows, keys, settings, new SimpleMeterRegistry(), ticker, FaultPoints.NONE);
      FollowingFeed feed =
          new FollowingFeed(
              keys,
              follows,
              reads,
              cursors,
              settings,
              new SimpleMeterRegistry(),
              ticker,
              itemStore);
      // Users 1..20 read before anything is fanned out (their inboxes are pushed to); 21..30
      // read only after (theirs are rebuilt from the outboxes).
      for (long user = 1; user <= 20; user++) {
        assertThat(feed.page(user, 5, null).items()).isEmpty();
      }
      created.forEach(fanOut::fanOut);
      feed.refreshPulledAuthors();
      // User 5's inbox expires (inactive): rebuilt at the next read.
      redis.delete(keys.inbox(5));
      Map<Long, List<String>> byUser = new HashMap<>();
      for (long user = 1; user <= 30; user++) {
        byUser.put(user, pageToTheEnd(feed, user));
      }
      feeds.put(mode.getKey(), byUser);
    }

    Comparator<Posted> newestFirst =
        Comparator.comparing(Posted::createdAt)
            .thenComparing(p -> FeedEntry.of(p.biz(), p.id(), 0).member())
            .reversed();
    for (long user = 1; user <= 30; user++) {
      Set<Long> authors = followed.get(user);
      List<String> model =
          posted.stream()
              .filter(p -> authors.contains(p.author()))
              .filter(p -> !deleted.contains(p.biz() + ":" + p.id()))
              .sorted(newestFirst)
              .map(p -> p.biz() + ":" + p.id())
              .toList();
      assertThat(model).isNotEmpty();
      for (String mode : feeds.keySet()) {
        assertThat(feeds.get(mode).get(user)).as(mode + ", user " + user).isEqualTo(model);
      }
    }
  }

  private static List<String> pageToTheEnd(FollowingFeed feed, long user) {
    List<String> ids = new ArrayList<>();
    String cursor = null;
    do {
      FeedPage page = feed.page(user, 7, cursor);
      page.items().forEach(i -> ids.add(i.biz() + ":" + i.itemId()));
      cursor = page.nextCursor();
    } while (cursor != null);
    return ids;
  }
}
