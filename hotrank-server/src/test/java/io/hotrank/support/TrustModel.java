package io.hotrank.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.hotrank.support.HttpJson.Answer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import tools.jackson.databind.JsonNode;

/**
 * An independent model of trusted counting (docs/design/trust.md), for tests that drive the service
 * over HTTP: actors of every kind told to the service, random events of them on a few items, and
 * what the raw and trusted counters and a board scored by either must then show. The model keeps
 * its own state per item, actor and type, in plain arithmetic; it shares no code with the fold.
 *
 * <p>Kinds of actor, three of each: old (a year), old with trust 0.5, new (an hour, weighing a
 * fifth by default), new with trust 0.3, a bot, one flagged from the start, one flagged between two
 * phases ({@link #flagMidStream}), one the platform never sent (weighing as an anonymous event);
 * and events without a user.
 */
public final class TrustModel {

  /** The default weights and caps of {@code hotrank.trust.*}. */
  private static final double NEW_ACTOR_WEIGHT = 0.2;

  private static final Duration NEW_ACTOR_AGE = Duration.ofDays(7);
  private static final long ANONYMOUS = 1000;
  private static final Map<String, Integer> CAP =
      Map.of("view", 3, "comment", 3, "share", 1, "dislike", 1);
  private static final List<String> COUNTERS =
      List.of("like", "view", "comment", "share", "collect", "dislike");
  private static final List<String> TYPES =
      List.of(
          "like",
          "like",
          "unlike",
          "view",
          "view",
          "view",
          "comment",
          "share",
          "collect",
          "uncollect",
          "dislike");

  private enum Kind {
    OLD,
    OLD_HALF,
    NEW,
    NEW_LOW,
    BOT,
    FLAGGED,
    MID_FLAGGED,
    UNKNOWN
  }

  private record Actor(long userId, Kind kind) {}

  private final HttpJson http;
  private final String biz;
  private final List<Long> items;
  private final long userBase;
  private final List<Actor> actors = new ArrayList<>();
  private boolean midFlagged;

  /**
   * Per item: the raw counters and the trusted ones in thousandths, in {@link #COUNTERS}' order.
   */
  private final Map<Long, long[]> raw = new LinkedHashMap<>();

  private final Map<Long, long[]> trusted = new LinkedHashMap<>();

  /** Per (item, user, like|collect): the weight its standing action added. */
  private final Map<String, Long> standing = new HashMap<>();

  /** Per (item, user, type): how many the trusted counter took. */
  private final Map<String, Integer> taken = new HashMap<>();

  /**
   * @param items the ids of live items of {@code biz}, none with an interaction yet
   * @param userBase the first of this model's user ids (keep runs apart)
   */
  public TrustModel(HttpJson http, String biz, List<Long> items, long userBase) {
    this.http = http;
    this.biz = biz;
    this.items = List.copyOf(items);
    this.userBase = userBase;
    for (long id : items) {
      raw.put(id, new long[6]);
      trusted.put(id, new long[6]);
    }
  }

  /** Tells the service of the actors, as of {@code now} (the events' time). */
  public void sendActors(Instant now) {
    for (Kind kind : Kind.values()) {
      for (int j = 0; j < 3; j++) {
        Actor actor = new Actor(userBase + kind.ordinal() * 10L + j, kind);
        actors.add(actor);
        String path = "/api/v1/actors/" + actor.userId();
        Instant old = now.minus(Duration.ofDays(365));
        Instant young = now.minus(Duration.ofHours(1));
        String body =
            switch (kind) {
              case OLD, FLAGGED, MID_FLAGGED -> "{\"createdAt\":\"" + old + "\"}";
              case OLD_HALF -> "{\"createdAt\":\"" + old + "\",\"trust\":0.5}";
              case NEW -> "{\"createdAt\":\"" + young + "\"}";
              case NEW_LOW ->
                  "{\"createdAt\":\"" + now.minus(Duration.ofDays(2)) + "\",\"trust\":0.3}";
              case BOT -> "{\"createdAt\":\"" + old + "\",\"bot\":true}";
              case UNKNOWN -> null;
            };
        if (body != null) {
          Answer put = http.put(path, body);
          assertThat(put.status()).as(put.body()).isIn(200, 201);
        }
        if (kind == Kind.FLAGGED) {
          flag(actor.userId());
        }
      }
    }
  }

  /**
   * The operators flag the actors of the mid-stream kind: their standing likes and collects come
   * out of the trusted counters (their rows stay, weighing nothing), and their later events weigh
   * nothing.
   */
  public void flagMidStream() {
    for (Actor actor : actors) {
      if (actor.kind() != Kind.MID_FLAGGED) {
        continue;
      }
      flag(actor.userId());
      standing.replaceAll(
          (key, weight) -> {
            String[] parts = key.split("/");
            if (Long.parseLong(parts[1]) != actor.userId()) {
              return weight;
            }
            long[] t = trusted.get(Long.parseLong(parts[0]));
            int slot = COUNTERS.indexOf(parts[2]);
            t[slot] = Math.max(0, t[slot] - weight);
            return 0L;
          });
    }
    midFlagged = true;
  }

  private void flag(long userId) {
    flag(http, userId);
  }

  /** What an event of the actor weighs now, in thousandths, by the documented rules. */
  private long weight(Actor actor) {
    return switch (actor.kind()) {
      case OLD -> 1000;
      case OLD_HALF -> 500;
      case NEW -> Math.round(NEW_ACTOR_WEIGHT * 1000);
      case NEW_LOW -> Math.round(NEW_ACTOR_WEIGHT * 0.3 * 1000);
      case BOT, FLAGGED -> 0;
      case MID_FLAGGED -> midFlagged ? 0 : 1000;
      case UNKNOWN -> ANONYMOUS;
    };
  }

  /**
   * {@code n} random events as JSON, each applied to the model in order. Events of one item keep
   * their order on both sources (Kafka partitions by item), which is all the model relies on.
   */
  public List<String> events(Random random, int n) {
    assertThat(NEW_ACTOR_AGE).isGreaterThan(Duration.ofDays(2)); // NEW_LOW is still new
    List<String> events = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long item = items.get(random.nextInt(items.size()));
      String type = TYPES.get(random.nextInt(TYPES.size()));
      // 24 actors on a few items: each repeats its likes and views, and meets the caps.
      Actor actor = random.nextInt(8) == 0 ? null : actors.get(random.nextInt(actors.size()));
      apply(item, type, actor);
      events.add(
          "{\"biz\":\""
              + biz
              + "\",\"itemId\":"
              + item
              + ",\"type\":\""
              + type
              + "\""
              + (actor == null ? "" : ",\"userId\":" + actor.userId())
              + "}");
    }
    return events;
  }

  private void apply(long item, String type, Actor actor) {
    boolean undo = type.startsWith("un");
    String counter = undo ? type.substring(2) : type;
    int slot = COUNTERS.indexOf(counter);
    long[] r = raw.get(item);
    long[] t = trusted.get(item);
    if (actor == null) {
      if (undo) {
        if (r[slot] > 0) {
          r[slot]--;
          t[slot] = Math.max(0, t[slot] - ANONYMOUS);
        }
      } else {
        r[slot]++;
        t[slot] += ANONYMOUS;
      }
      return;
    }
    String key = item + "/" + actor.userId() + "/" + counter;
    if (counter.equals("like") || counter.equals("collect")) {
      Long added = standing.get(key);
      if (!undo && added == null) {
        long w = weight(actor);
        standing.put(key, w);
        r[slot]++;
        t[slot] += w;
      } else if (undo && added != null) {
        standing.remove(key);
        r[slot] = Math.max(0, r[slot] - 1);
        t[slot] = Math.max(0, t[slot] - added);
      }
      return;
    }
    r[slot]++;
    int n = taken.getOrDefault(key, 0);
    if (n < CAP.get(counter)) {
      taken.put(key, n + 1);
      t[slot] += weight(actor);
    }
  }

  /** Every item's raw and trusted counters, as the item read shows them. */
  public void assertCounters() {
    for (long id : items) {
      JsonNode item = http.get("/api/v1/items/" + biz + "/" + id).json();
      for (int slot = 0; slot < 6; slot++) {
        String counter = COUNTERS.get(slot);
        assertThat(item.get("counts").get(counter).asLong())
            .as("raw %s of item %d", counter, id)
            .isEqualTo(raw.get(id)[slot]);
        assertThat(item.get("trustedCounts").get(counter).asDouble())
            .as("trusted %s of item %d", counter, id)
            .isEqualTo(trusted.get(id)[slot] / 1000.0);
      }
    }
  }

  /** Whether some item's trusted counters differ from its raw ones: the model tells them apart. */
  public boolean trustMatters() {
    return items.stream()
        .anyMatch(
            id -> {
              for (int slot = 0; slot < 6; slot++) {
                if (trusted.get(id)[slot] != raw.get(id)[slot] * 1000) {
                  return true;
                }
              }
              return false;
            });
  }

  /**
   * An item's points by the test boards' weights (like 1, view 0.5, comment 2, share 1, collect 1,
   * dislike -1) from its trusted (or raw) counters.
   */
  private double points(long id, boolean byTrusted) {
    double[] weights = {1, 0.5, 2, 1, 1, -1};
    double points = 0;
    for (int slot = 0; slot < 6; slot++) {
      double count = byTrusted ? trusted.get(id)[slot] / 1000.0 : raw.get(id)[slot];
      points += weights[slot] * count;
    }
    return points;
  }

  /**
   * A Hacker News board of the model's items, recomputed now: each item's score from the trusted
   * (or raw) counters by {@code (P - 1) / (T + 2)^1.5}, P weighing like 1, view 0.5, comment 2,
   * share 1, collect 1, dislike -1; and the entries in order of score.
   */
  public void assertHackerNewsBoard(
      String board, boolean byTrusted, Map<Long, Instant> createdAt, Instant now) {
    Map<Long, Double> expected = new HashMap<>();
    for (long id : items) {
      double points = points(id, byTrusted);
      double hours = Duration.between(createdAt.get(id), now).toMillis() / 3_600_000.0;
      expected.put(id, (points - 1) / Math.pow(hours + 2, 1.5));
    }
    Answer recomputed = http.admin("/api/v1/admin/boards/" + board + "/recompute");
    assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
    Answer read = http.get("/api/v1/boards/" + board + "?limit=" + items.size());
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    List<Long> order = new ArrayList<>();
    read.json()
        .get("items")
        .forEach(
            e -> {
              long id = e.get("itemId").asLong();
              order.add(id);
              double want = expected.get(id);
              assertThat(e.get("score").asDouble())
                  .as("score of item %d on %s", id, board)
                  .isCloseTo(want, within(1e-9 * Math.abs(want) + 1e-12));
            });
    assertThat(order).as("every item on %s", board).containsExactlyInAnyOrderElementsOf(items);
    for (int i = 1; i < order.size(); i++) {
      assertThat(expected.get(order.get(i - 1)))
          .as("%s ranks %d before %d", board, order.get(i - 1), order.get(i))
          .isGreaterThanOrEqualTo(expected.get(order.get(i)) - 1e-12);
    }
  }

  /**
   * A window board of the model's items whose window holds every event the model saw (items with no
   * interaction before it): within 10 s, each item's score is what its events added, by the board's
   * weights (like 1, view 0.5, comment 2, share 1, collect 1, dislike -1), each event by its
   * trusted weight (or once, raw), a flag taking back what the actor's standing likes and collects
   * added; that is, the weighted sum of the item's trusted (or raw) counters.
   */
  public void assertWindowBoard(String board, boolean byTrusted) {
    Map<Long, Double> expected = new HashMap<>();
    for (long id : items) {
      expected.put(id, points(id, byTrusted));
    }
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              Map<Long, Double> read = BoardReads.scores(http, board, items.size());
              for (long id : items) {
                assertThat(read.getOrDefault(id, 0.0))
                    .as("score of item %d on %s", id, board)
                    .isCloseTo(expected.get(id), within(1e-6));
              }
            });
  }

  /**
   * A leaderboard of likes by trusted weight, kept in Redis by the folds (and the flag's
   * retraction): within 10 s, the items with trusted likes, most first (ties: the newer, which in
   * the model tests is the smaller id), each scored its trusted likes.
   */
  public void assertTrustedLikesLeaderboard(String board) {
    List<Long> expected =
        items.stream()
            .filter(id -> trusted.get(id)[0] > 0)
            .sorted(
                java.util.Comparator.comparingLong((Long id) -> trusted.get(id)[0])
                    .reversed()
                    .thenComparing(java.util.Comparator.naturalOrder()))
            .toList();
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              Answer read = http.get("/api/v1/boards/" + board + "?limit=" + items.size());
              assertThat(read.status()).as(read.body()).isEqualTo(200);
              List<Long> order = new ArrayList<>();
              for (JsonNode e : read.json().get("items")) {
                long id = e.get("itemId").asLong();
                order.add(id);
                // An assertion, not a lookup that throws: the board published before a rebuild may
                // still show an earlier test's items until its next publish, which the wait awaits.
                assertThat(items).as("items of the model on %s", board).contains(id);
                assertThat(e.get("score").asDouble())
                    .as("trusted likes of item %d on %s", id, board)
                    .isCloseTo(trusted.get(id)[0] / 1000.0, within(1e-9));
              }
              assertThat(order).as(board).containsExactlyElementsOf(expected);
            });
  }

  /**
   * A flag's invariants once every event was folded, whatever order the flag and the folds took:
   * none of {@code flagged}'s likes and collects weighs anything any more, and each item's trusted
   * likes and collects are the weights of the rows that stand (events of users only, no anonymous
   * ones, so that nothing else adds to them).
   */
  public static void assertFlagTookEverythingBack(
      org.springframework.jdbc.core.JdbcTemplate jdbc, String biz, long flagged) {
    assertThat(
            jdbc.queryForObject(
                "SELECT COUNT(*) FROM hr_user_action WHERE biz = ? AND user_id = ? AND weight > 0",
                Long.class,
                biz,
                flagged))
        .as("likes and collects of the flagged actor that still weigh")
        .isZero();
    Map<String, Long> rows = new HashMap<>();
    jdbc.query(
        "SELECT item_id, action, SUM(weight), COUNT(*) FROM hr_user_action WHERE biz = ?"
            + " GROUP BY item_id, action",
        rs -> {
          rows.put(rs.getLong(1) + "/" + rs.getString(2), rs.getLong(3));
          rows.put(rs.getLong(1) + "/" + rs.getString(2) + "/n", rs.getLong(4));
        },
        biz);
    jdbc.query(
        "SELECT item_id, like_cnt, like_trusted, collect_cnt, collect_trusted FROM hr_item_counter"
            + " WHERE biz = ?",
        rs -> {
          long id = rs.getLong(1);
          assertThat(rs.getLong(2))
              .as("likes of %d", id)
              .isEqualTo(rows.getOrDefault(id + "/like/n", 0L));
          assertThat(rs.getLong(3))
              .as("trusted likes of %d", id)
              .isEqualTo(rows.getOrDefault(id + "/like", 0L));
          assertThat(rs.getLong(4))
              .as("collects of %d", id)
              .isEqualTo(rows.getOrDefault(id + "/collect/n", 0L));
          assertThat(rs.getLong(5))
              .as("trusted collects of %d", id)
              .isEqualTo(rows.getOrDefault(id + "/collect", 0L));
        },
        biz);
  }

  /**
   * A batch of {@code n} random likes, unlikes, collects and uncollects of {@code users} on biz's
   * items {@code base+1..base+items}, as JSON events.
   */
  public static String[] toggles(
      String biz, long base, int items, List<Long> users, Random random, int n) {
    String[] types = {"like", "like", "unlike", "collect", "uncollect"};
    String[] events = new String[n];
    for (int i = 0; i < n; i++) {
      events[i] =
          "{\"biz\":\""
              + biz
              + "\",\"itemId\":"
              + (base + 1 + random.nextInt(items))
              + ",\"type\":\""
              + types[random.nextInt(types.length)]
              + "\",\"userId\":"
              + users.get(random.nextInt(users.size()))
              + "}";
    }
    return events;
  }

  /**
   * Sends five old actors from {@code userBase}, streams 14 batches of 200 of their likes and
   * collects on biz's items {@code itemBase+1..itemBase+items} through {@code postAndFold} (each
   * batch folded before the next), and flags, while the stream goes on, the first actor after 4
   * batches, and the second and the fifth after 8: the fifth acts from the 9th batch on, so that it
   * is flagged with no action standing while its first ones are being folded. Returns once the
   * stream ended, with the three flagged users.
   */
  public static List<Long> flagDuringAStream(
      HttpJson http,
      String biz,
      long itemBase,
      int items,
      long userBase,
      java.util.function.Consumer<String[]> postAndFold)
      throws Exception {
    List<Long> users = new ArrayList<>();
    for (long u = userBase; u < userBase + 5; u++) {
      Answer put = http.put("/api/v1/actors/" + u, "{\"createdAt\":\"2020-01-01T00:00:00Z\"}");
      assertThat(put.status()).as(put.body()).isEqualTo(201);
      users.add(u);
    }
    java.util.concurrent.CountDownLatch first = new java.util.concurrent.CountDownLatch(4);
    java.util.concurrent.CountDownLatch second = new java.util.concurrent.CountDownLatch(8);
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      java.util.concurrent.Future<?> stream =
          pool.submit(
              () -> {
                Random random = new Random(userBase);
                for (int round = 0; round < 14; round++) {
                  List<Long> acting = round < 8 ? users.subList(0, 4) : users;
                  postAndFold.accept(toggles(biz, itemBase, items, acting, random, 200));
                  first.countDown();
                  second.countDown();
                }
                return null;
              });
      assertThat(first.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      flag(http, userBase);
      assertThat(second.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      flag(http, userBase + 4);
      flag(http, userBase + 1);
      stream.get(120, java.util.concurrent.TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    return List.of(userBase, userBase + 1, userBase + 4);
  }

  private static void flag(HttpJson http, long userId) {
    Answer flag =
        http.put(
            "/api/v1/admin/actors/" + userId + "/flag",
            "{\"reason\":\"ring\"}",
            http.adminHeader());
    assertThat(flag.status()).as(flag.body()).isEqualTo(200);
  }

  /**
   * A range of 100 user ids of its own for one test, out of {@code [block * 1e9, (block + 1) *
   * 1e9)} (one block per test: 3 and up; ActorsContract's single actors use 1), emptied of the
   * actors an earlier run left in a kept database.
   */
  public static long users(org.springframework.jdbc.core.JdbcTemplate jdbc, int block) {
    long base =
        block * 1_000_000_000L
            + java.util.concurrent.ThreadLocalRandom.current().nextLong(1, 1_000_000) * 100;
    jdbc.update("DELETE FROM hr_actor WHERE user_id >= ? AND user_id < ?", base, base + 100);
    return base;
  }
}
