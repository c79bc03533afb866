package io.hotrank.board.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.BoardReads;
import io.hotrank.support.HttpJson;
import io.hotrank.support.HttpJson.Answer;
import io.hotrank.support.SecondInstance;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Segmented boards of every kind through HTTP on one database engine: after random likes, edits
 * that move items between segments, and deletes, every segment board of three families (by tag, by
 * an attribute, by author) equals a model computed here from the same events; the listing of
 * segments; the reads' contract (400s naming the field, segment-required, an empty segment, ETags,
 * cursor pages); and controls per segment and per family, visible at once on two instances.
 */
@TestPropertySource(
    properties = {
      "hotrank.boards[0].name=seg-tag",
      "hotrank.boards[0].biz=seg",
      "hotrank.boards[0].algorithm=decay",
      "hotrank.boards[0].half-life=6h",
      "hotrank.boards[0].window=3d",
      "hotrank.boards[0].size=5",
      "hotrank.boards[0].refresh=0 0 0 1 1 *",
      "hotrank.boards[0].segment-by=tag",
      "hotrank.boards[1].name=seg-lang",
      "hotrank.boards[1].biz=seg",
      "hotrank.boards[1].algorithm=decay",
      "hotrank.boards[1].half-life=6h",
      "hotrank.boards[1].window=3d",
      "hotrank.boards[1].size=5",
      "hotrank.boards[1].refresh=0 0 0 1 1 *",
      "hotrank.boards[1].segment-by=attribute:lang",
      "hotrank.boards[2].name=seg-author",
      "hotrank.boards[2].biz=seg",
      "hotrank.boards[2].algorithm=decay",
      "hotrank.boards[2].half-life=6h",
      "hotrank.boards[2].window=3d",
      "hotrank.boards[2].size=3",
      "hotrank.boards[2].refresh=0 0 0 1 1 *",
      "hotrank.boards[2].segment-by=author",
      "hotrank.boards[3].name=seg-plain",
      "hotrank.boards[3].biz=seg",
      "hotrank.boards[3].size=5",
      "hotrank.boards[3].refresh=0 0 0 1 1 *",
      "hotrank.boards[4].name=segc-tag",
      "hotrank.boards[4].biz=segc",
      "hotrank.boards[4].algorithm=decay",
      "hotrank.boards[4].window=3d",
      "hotrank.boards[4].size=4",
      "hotrank.boards[4].refresh=0 0 0 1 1 *",
      "hotrank.boards[4].segment-by=tag",
      "hotrank.boards[5].name=div-capped",
      "hotrank.boards[5].biz=div",
      "hotrank.boards[5].algorithm=decay",
      "hotrank.boards[5].half-life=6h",
      "hotrank.boards[5].window=3d",
      "hotrank.boards[5].size=6",
      "hotrank.boards[5].refresh=0 0 0 1 1 *",
      "hotrank.boards[5].max-per-author=2",
      "hotrank.boards[6].name=div-scaled",
      "hotrank.boards[6].biz=div",
      "hotrank.boards[6].algorithm=decay",
      "hotrank.boards[6].half-life=6h",
      "hotrank.boards[6].window=3d",
      "hotrank.boards[6].size=6",
      "hotrank.boards[6].refresh=0 0 0 1 1 *",
      "hotrank.boards[6].scale-by=tag",
      "hotrank.boards[7].name=div-capped-tag",
      "hotrank.boards[7].biz=div",
      "hotrank.boards[7].algorithm=decay",
      "hotrank.boards[7].half-life=6h",
      "hotrank.boards[7].window=3d",
      "hotrank.boards[7].size=3",
      "hotrank.boards[7].refresh=0 0 0 1 1 *",
      "hotrank.boards[7].segment-by=tag",
      "hotrank.boards[7].max-per-author=1",
      "hotrank.boards[8].name=lseg-tag",
      "hotrank.boards[8].biz=seg",
      "hotrank.boards[8].type=live",
      "hotrank.boards[8].algorithm=decay",
      "hotrank.boards[8].half-life=6h",
      "hotrank.boards[8].window=3d",
      "hotrank.boards[8].size=5",
      "hotrank.boards[8].refresh=0 0 0 1 1 *",
      "hotrank.boards[8].segment-by=tag",
      "hotrank.boards[9].name=lseg-lang",
      "hotrank.boards[9].biz=seg",
      "hotrank.boards[9].type=live",
      "hotrank.boards[9].algorithm=decay",
      "hotrank.boards[9].half-life=6h",
      "hotrank.boards[9].window=3d",
      "hotrank.boards[9].size=5",
      "hotrank.boards[9].refresh=0 0 0 1 1 *",
      "hotrank.boards[9].segment-by=attribute:lang",
      "hotrank.boards[10].name=lseg-author",
      "hotrank.boards[10].biz=seg",
      "hotrank.boards[10].type=live",
      "hotrank.boards[10].algorithm=decay",
      "hotrank.boards[10].half-life=6h",
      "hotrank.boards[10].window=3d",
      "hotrank.boards[10].size=3",
      "hotrank.boards[10].refresh=0 0 0 1 1 *",
      "hotrank.boards[10].segment-by=author",
      "hotrank.boards[11].name=lsegc-tag",
      "hotrank.boards[11].biz=segc",
      "hotrank.boards[11].type=live",
      "hotrank.boards[11].algorithm=decay",
      "hotrank.boards[11].window=3d",
      "hotrank.boards[11].size=4",
      "hotrank.boards[11].refresh=0 0 0 1 1 *",
      "hotrank.boards[11].segment-by=tag",
      "hotrank.boards[12].name=lbseg-tag",
      "hotrank.boards[12].biz=seg",
      "hotrank.boards[12].type=leaderboard",
      "hotrank.boards[12].counter=like",
      "hotrank.boards[12].size=5",
      "hotrank.boards[12].segment-by=tag",
      "hotrank.boards[13].name=wseg-tag",
      "hotrank.boards[13].biz=seg",
      "hotrank.boards[13].type=window",
      "hotrank.boards[13].window=12h",
      "hotrank.boards[13].bucket=1h",
      "hotrank.boards[13].size=5",
      "hotrank.boards[13].segment-by=tag",
      "hotrank.boards[14].name=wsegc-tag",
      "hotrank.boards[14].biz=segc",
      "hotrank.boards[14].type=window",
      "hotrank.boards[14].window=12h",
      "hotrank.boards[14].bucket=1h",
      "hotrank.boards[14].size=4",
      "hotrank.boards[14].segment-by=tag",
      "hotrank.boards[15].name=ldiv-capped",
      "hotrank.boards[15].biz=div",
      "hotrank.boards[15].type=live",
      "hotrank.boards[15].algorithm=decay",
      "hotrank.boards[15].half-life=6h",
      "hotrank.boards[15].window=3d",
      "hotrank.boards[15].size=6",
      "hotrank.boards[15].max-per-author=2",
      "hotrank.boards[16].name=ldiv-capped-tag",
      "hotrank.boards[16].biz=div",
      "hotrank.boards[16].type=live",
      "hotrank.boards[16].algorithm=decay",
      "hotrank.boards[16].half-life=6h",
      "hotrank.boards[16].window=3d",
      "hotrank.boards[16].size=3",
      "hotrank.boards[16].segment-by=tag",
      "hotrank.boards[16].max-per-author=1",
      "hotrank.boards[17].name=ldiv-scaled",
      "hotrank.boards[17].biz=div",
      "hotrank.boards[17].type=live",
      "hotrank.boards[17].algorithm=decay",
      "hotrank.boards[17].half-life=6h",
      "hotrank.boards[17].window=3d",
      "hotrank.boards[17].size=6",
      "hotrank.boards[17].refresh=0 0 0 1 1 *",
      "hotrank.boards[17].scale-by=tag",
      "hotrank.boards[18].name=lbdiv-scaled",
      "hotrank.boards[18].biz=div",
      "hotrank.boards[18].type=leaderboard",
      "hotrank.boards[18].counter=like",
      "hotrank.boards[18].size=6",
      "hotrank.boards[18].refresh=0 0 0 1 1 *",
      "hotrank.boards[18].scale-by=tag",
      "hotrank.boards[19].name=lseg-scaled",
      "hotrank.boards[19].biz=seg",
      "hotrank.boards[19].type=live",
      "hotrank.boards[19].algorithm=decay",
      "hotrank.boards[19].half-life=6h",
      "hotrank.boards[19].window=3d",
      "hotrank.boards[19].size=5",
      "hotrank.boards[19].refresh=0 0 0 1 1 *",
      "hotrank.boards[19].scale-by=tag",
      "hotrank.boards[20].name=lbseg-scaled",
      "hotrank.boards[20].biz=seg",
      "hotrank.boards[20].type=leaderboard",
      "hotrank.boards[20].counter=like",
      "hotrank.boards[20].size=5",
      "hotrank.boards[20].refresh=0 0 0 1 1 *",
      "hotrank.boards[20].scale-by=tag",
      "hotrank.boards[21].name=scl-live",
      "hotrank.boards[21].biz=scl",
      "hotrank.boards[21].type=live",
      "hotrank.boards[21].algorithm=decay",
      "hotrank.boards[21].half-life=6h",
      "hotrank.boards[21].window=3d",
      "hotrank.boards[21].size=1",
      "hotrank.boards[21].refresh=0 0 0 1 1 *",
      "hotrank.boards[21].scale-by=tag",
      "hotrank.boards[22].name=scl-liked",
      "hotrank.boards[22].biz=scl",
      "hotrank.boards[22].type=leaderboard",
      "hotrank.boards[22].counter=like",
      "hotrank.boards[22].size=1",
      "hotrank.boards[22].refresh=0 0 0 1 1 *",
      "hotrank.boards[22].scale-by=tag",
      "hotrank.boards[23].name=crowd-live",
      "hotrank.boards[23].biz=crowd",
      "hotrank.boards[23].type=live",
      "hotrank.boards[23].algorithm=decay",
      "hotrank.boards[23].half-life=6h",
      "hotrank.boards[23].window=3d",
      "hotrank.boards[23].size=1",
      "hotrank.boards[23].refresh=0 0 0 1 1 *",
      "hotrank.boards[23].scale-by=tag",
      "hotrank.boards[24].name=crowd-liked",
      "hotrank.boards[24].biz=crowd",
      "hotrank.boards[24].type=leaderboard",
      "hotrank.boards[24].counter=like",
      "hotrank.boards[24].size=1",
      "hotrank.boards[24].refresh=0 0 0 1 1 *",
      "hotrank.boards[24].scale-by=tag",
      "hotrank.boards[25].name=wseg-scaled",
      "hotrank.boards[25].biz=seg",
      "hotrank.boards[25].type=window",
      "hotrank.boards[25].window=12h",
      "hotrank.boards[25].bucket=1h",
      "hotrank.boards[25].size=5",
      "hotrank.boards[25].scale-by=tag",
      "hotrank.boards[26].name=scl-window",
      "hotrank.boards[26].biz=scl",
      "hotrank.boards[26].type=window",
      "hotrank.boards[26].window=12h",
      "hotrank.boards[26].bucket=1h",
      "hotrank.boards[26].size=1",
      "hotrank.boards[26].refresh=0 0 0 1 1 *",
      "hotrank.boards[26].scale-by=tag",
      "hotrank.boards[27].name=crowd-window",
      "hotrank.boards[27].biz=crowd",
      "hotrank.boards[27].type=window",
      "hotrank.boards[27].window=12h",
      "hotrank.boards[27].bucket=1h",
      "hotrank.boards[27].size=1",
      "hotrank.boards[27].refresh=0 0 0 1 1 *",
      "hotrank.boards[27].scale-by=tag"
    })
public abstract class SegmentBoardsContract extends ApiTestSupport {

  private static final double HALF_LIFE_HOURS = 6;

  /** An item as the model knows it. */
  private static final class Modelled {
    final long id;
    final Instant createdAt;
    long author;
    List<String> tags;
    Map<String, String> attributes;
    long likes;
    boolean deleted;

    Modelled(
        long id, Instant createdAt, long author, List<String> tags, Map<String, String> attrs) {
      this.id = id;
      this.createdAt = createdAt;
      this.author = author;
      this.tags = tags;
      this.attributes = attrs;
    }
  }

  /** A Zipf draw over 1..n with exponent 1. */
  private static int zipf(Random random, int n, double[] cumulative) {
    double u = random.nextDouble() * cumulative[n - 1];
    int lo = 0;
    int hi = n - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cumulative[mid] < u) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo + 1;
  }

  private static final List<String> LANGS = List.of("en", "fr", "de", "zh", "pt br", "日本語");

  private static List<String> randomTags(Random random, double[] cumulative) {
    Set<String> tags = new java.util.LinkedHashSet<>();
    int n = random.nextInt(4); // 0 to 3 tags
    for (int i = 0; i < n; i++) {
      tags.add("t" + zipf(random, cumulative.length, cumulative));
    }
    return List.copyOf(tags);
  }

  private static Map<String, String> randomAttributes(Random random) {
    Map<String, String> attributes = new TreeMap<>();
    if (random.nextInt(5) > 0) {
      attributes.put("lang", LANGS.get(random.nextInt(LANGS.size())));
    }
    if (random.nextBoolean()) {
      attributes.put("community", "c" + random.nextInt(3));
    }
    return attributes;
  }

  private Answer put(Modelled item) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("authorId", item.author);
    body.put("title", "item " + item.id);
    body.put("tags", item.tags);
    body.put("attributes", item.attributes);
    return http.put("/api/v1/items/seg/" + item.id, HttpJson.json(body));
  }

  private static String path(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * The leaderboard families (ranked by likes of all time) and the window families (by likes in
   * their window, which holds every like here): items without a like are left out.
   */
  private static final Set<String> BY_LIKES = Set.of("lbseg-tag", "wseg-tag");

  /** The model's board of one segment: ids best first. */
  private static List<Long> modelBoard(
      String family,
      List<Modelled> items,
      Function<Modelled, Set<String>> split,
      String segment,
      int size,
      Instant at) {
    boolean byLikes = BY_LIKES.contains(family);
    return items.stream()
        .filter(i -> !i.deleted && split.apply(i).contains(segment))
        .filter(i -> !byLikes || i.likes > 0)
        .sorted(
            Comparator.comparingDouble((Modelled i) -> byLikes ? -i.likes : -score(i, at))
                .thenComparing(i -> i.createdAt, Comparator.reverseOrder())
                .thenComparing(i -> -i.id))
        .limit(size)
        .map(i -> i.id)
        .toList();
  }

  private static double score(Modelled item, Instant at) {
    double hours = Math.max(0, Duration.between(item.createdAt, at).toMillis() / 3_600_000.0);
    return item.likes * Math.pow(2, -hours / HALF_LIFE_HOURS);
  }

  /** The ids of a whole segment board (the tests' default limit is smaller than some boards). */
  private List<Long> ids(HttpJson client, String url) {
    int size =
        url.contains("seg-author") || url.contains("div-capped-tag")
            ? 3
            : url.contains("segc") ? 4 : 5;
    String read = url.contains("?") ? url : url + "?limit=" + size;
    // A 503 with Retry-After is the read's documented answer when Redis misses its budget under
    // load (the segment is not held here yet): a client reads again, so this does too.
    Answer answer =
        await("a read of " + read + " that is not 503")
            .atMost(Duration.ofSeconds(10))
            .pollDelay(Duration.ZERO) // the first read at once: most are answered
            .pollInterval(Duration.ofMillis(200))
            .until(() -> client.get(read), a -> a.status() != 503);
    assertThat(answer.status()).as(url + " " + answer.body()).isEqualTo(200);
    List<Long> ids = new ArrayList<>();
    answer.json().get("items").forEach(e -> ids.add(e.get("itemId").asLong()));
    return ids;
  }

  @Test
  void everySegmentBoard_equalsTheModel_throughLikesEditsAndDeletes() {
    Random random = new Random(40);
    int values = 2000;
    double[] cumulative = new double[values];
    for (int k = 1; k <= values; k++) {
      cumulative[k - 1] = (k == 1 ? 0 : cumulative[k - 2]) + 1.0 / k;
    }
    List<Modelled> items = new ArrayList<>();
    for (long id = 1; id <= 150; id++) {
      Modelled item =
          new Modelled(
              id,
              NOW.minusSeconds(30 + id * 7),
              1 + random.nextInt(12),
              randomTags(random, cumulative),
              randomAttributes(random));
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("biz", "seg");
      body.put("id", id);
      body.put("authorId", item.author);
      body.put("title", "item " + id);
      body.put("tags", item.tags);
      body.put("attributes", item.attributes);
      body.put("createdAt", item.createdAt.toString());
      Answer created = http.post("/api/v1/items", HttpJson.json(body));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      items.add(item);
    }
    Map<String, Function<Modelled, Set<String>>> families = new LinkedHashMap<>();
    families.put("seg-tag", i -> new HashSet<>(i.tags));
    families.put(
        "seg-lang",
        i -> i.attributes.containsKey("lang") ? Set.of(i.attributes.get("lang")) : Set.of());
    families.put("seg-author", i -> Set.of(Long.toString(i.author)));
    // The live families of the same splits, kept by the folds, edits and deletes.
    families.put("lseg-tag", families.get("seg-tag"));
    families.put("lseg-lang", families.get("seg-lang"));
    families.put("lseg-author", families.get("seg-author"));
    families.put("lbseg-tag", families.get("seg-tag"));
    families.put("wseg-tag", families.get("seg-tag"));
    Map<String, Integer> sizes =
        Map.of(
            "wseg-tag",
            5,
            "seg-tag",
            5,
            "seg-lang",
            5,
            "seg-author",
            3,
            "lseg-tag",
            5,
            "lseg-lang",
            5,
            "lseg-author",
            3,
            "lbseg-tag",
            5);
    Map<String, Set<String>> everSeen = new HashMap<>();
    // The likes each tag received while they came (a scaled window board's n stays where it was
    // counted when an item moves).
    Map<String, Long> tagEvents = new HashMap<>();
    long user = 1;
    for (int round = 0; round < 6; round++) {
      List<String> events = new ArrayList<>();
      for (int e = 0; e < 200; e++) {
        Modelled item = items.get(zipf(random, items.size(), cumulative) - 1);
        if (item.deleted) {
          continue;
        }
        events.add(
            "{\"biz\":\"seg\",\"itemId\":"
                + item.id
                + ",\"type\":\"like\",\"userId\":"
                + user++
                + "}");
        item.likes++;
        item.tags.forEach(t -> tagEvents.merge(t, 1L, Long::sum));
      }
      postEvents(events.toArray(String[]::new));
      for (int edit = 0; edit < 15; edit++) {
        Modelled item = items.get(random.nextInt(items.size()));
        if (item.deleted) {
          continue;
        }
        item.tags = randomTags(random, cumulative);
        item.attributes = randomAttributes(random);
        item.author = 1 + random.nextInt(12);
        Answer edited = put(item);
        assertThat(edited.status()).as(edited.body()).isEqualTo(200);
      }
      for (int delete = 0; delete < 4; delete++) {
        Modelled item = items.get(random.nextInt(items.size()));
        if (!item.deleted) {
          assertThat(http.delete("/api/v1/items/seg/" + item.id).status()).isEqualTo(204);
          item.deleted = true;
        }
      }
      clock.set(NOW.plusSeconds(600L * (round + 1)));
      for (var family : families.entrySet()) {
        String name = family.getKey();
        Answer recomputed = http.admin("/api/v1/admin/boards/" + name + "/recompute");
        assertThat(recomputed.status()).as(recomputed.body()).isEqualTo(200);
        Instant at = Instant.parse(recomputed.json().get("computedAt").asString());
        Set<String> segments = new TreeSet<>();
        items.stream()
            .filter(i -> !i.deleted)
            .forEach(i -> segments.addAll(family.getValue().apply(i)));
        Set<String> seen = everSeen.computeIfAbsent(name, n -> new TreeSet<>());
        seen.addAll(segments);
        for (String segment : seen) {
          List<Long> expected =
              modelBoard(name, items, family.getValue(), segment, sizes.get(name), at);
          assertThat(ids(http, "/api/v1/boards/" + name + "/segments/" + path(segment)))
              .as("round %d, %s segment '%s'", round, name, segment)
              .containsExactlyElementsOf(expected);
        }
        // The listing: every segment with an item, most items first, then by name.
        Map<String, Integer> listed = new LinkedHashMap<>();
        String cursor = "";
        do {
          Answer page =
              http.get(
                  "/api/v1/boards/"
                      + name
                      + "/segments?limit=400"
                      + (cursor.isEmpty() ? "" : "&cursor=" + cursor));
          assertThat(page.status()).as(page.body()).isEqualTo(200);
          page.json()
              .get("segments")
              .forEach(s -> listed.put(s.get("segment").asString(), s.get("items").asInt()));
          JsonNode next = page.json().get("nextCursor");
          cursor = next == null || next.isNull() ? "" : next.asString();
        } while (!cursor.isEmpty());
        Map<String, Integer> expectedListing = new LinkedHashMap<>();
        segments.stream()
            .map(
                s ->
                    Map.entry(
                        s,
                        modelBoard(name, items, family.getValue(), s, sizes.get(name), at).size()))
            .filter(e -> e.getValue() > 0) // a leaderboard leaves items without a like out
            .sorted(
                Comparator.comparing((Map.Entry<String, Integer> e) -> -e.getValue())
                    .thenComparing(e -> BOARD_KEY_ORDER.apply(name, e.getKey())))
            .forEach(e -> expectedListing.put(e.getKey(), e.getValue()));
        assertThat(listed).as("round %d, %s listing", round, name).isEqualTo(expectedListing);
        assertThat(new ArrayList<>(listed.keySet()))
            .containsExactlyElementsOf(expectedListing.keySet());
      }
      // The live board and the leaderboard scaled by tag, merged from one set per tag (and one of
      // the items without a tag) through the same likes, edits and deletes.
      Map<String, Long> tagLikes = new HashMap<>();
      items.stream()
          .filter(i -> !i.deleted)
          .forEach(i -> i.tags.forEach(t -> tagLikes.merge(t, i.likes, Long::sum)));
      for (String board : List.of("lseg-scaled", "lbseg-scaled")) {
        Instant at = recomputed(board);
        boolean leaderboard = board.startsWith("lb");
        Function<Modelled, Double> scaled =
            i ->
                (leaderboard ? (double) i.likes : score(i, at))
                    / Math.log10(
                        10
                            + i.tags.stream()
                                .mapToLong(t -> tagLikes.getOrDefault(t, 0L))
                                .max()
                                .orElse(0));
        List<Long> expected =
            items.stream()
                .filter(i -> !i.deleted && (!leaderboard || i.likes > 0))
                .sorted(byScore(scaled))
                .limit(5)
                .map(i -> i.id)
                .toList();
        assertThat(ids(http, "/api/v1/boards/" + board + "?limit=5"))
            .as("round %d, %s", round, board)
            .containsExactlyElementsOf(expected);
      }
      // The window board scaled by tag: likes in its window (every like here) over the largest of
      // the item's tags' divisors, n counting the likes each tag received while they came.
      recomputed("wseg-scaled");
      Function<Modelled, Double> windowScaled =
          i ->
              i.likes
                  / Math.log10(
                      10
                          + i.tags.stream()
                              .mapToLong(t -> tagEvents.getOrDefault(t, 0L))
                              .max()
                              .orElse(0));
      List<Long> expectedWindow =
          items.stream()
              .filter(i -> !i.deleted && i.likes > 0)
              .sorted(byScore(windowScaled))
              .limit(5)
              .map(i -> i.id)
              .toList();
      Answer windowBoard = http.get("/api/v1/boards/wseg-scaled?limit=5");
      assertThat(ids(http, "/api/v1/boards/wseg-scaled?limit=5"))
          .as("round %d, wseg-scaled", round)
          .containsExactlyElementsOf(expectedWindow);
      Modelled windowTop =
          items.stream().filter(i -> i.id == expectedWindow.getFirst()).findFirst().orElseThrow();
      assertThat(windowBoard.json().get("items").get(0).get("score").asDouble())
          .isCloseTo(windowScaled.apply(windowTop), org.assertj.core.data.Offset.offset(1e-9));
    }
  }

  /** Best first, as boards order: score, then the younger item, then the larger id. */
  private static Comparator<Modelled> byScore(Function<Modelled, Double> score) {
    return Comparator.comparingDouble((Modelled i) -> -score.apply(i))
        .thenComparing(i -> i.createdAt, Comparator.reverseOrder())
        .thenComparing(i -> -i.id);
  }

  /** Takes items best first, skipping an author who has {@code cap} already, up to {@code size}. */
  private static List<Long> capped(List<Modelled> ranked, int cap, int size) {
    Map<Long, Integer> taken = new HashMap<>();
    List<Long> board = new ArrayList<>();
    for (Modelled item : ranked) {
      if (board.size() == size) {
        break;
      }
      if (taken.merge(item.author, 1, Integer::sum) <= cap) {
        board.add(item.id);
      }
    }
    return board;
  }

  @Test
  void maxPerAuthorAndScaleBy_equalTheirModels() {
    Random random = new Random(41);
    List<String> tags = List.of("big", "big", "big", "big", "mid", "mid", "small", "tiny");
    List<Modelled> items = new ArrayList<>();
    Map<Long, Long> views = new HashMap<>();
    for (long id = 1; id <= 60; id++) {
      List<String> itemTags =
          random.nextInt(6) == 0
              ? List.of()
              : random.nextInt(4) == 0
                  ? List.of("small", tags.get(random.nextInt(tags.size())))
                  : List.of(tags.get(random.nextInt(tags.size())));
      Modelled item =
          new Modelled(
              id,
              NOW.minusSeconds(20 + id * 11),
              1 + random.nextInt(5),
              List.copyOf(new java.util.LinkedHashSet<>(itemTags)),
              Map.of());
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("biz", "div");
      body.put("id", id);
      body.put("authorId", item.author);
      body.put("title", "d" + id);
      body.put("tags", item.tags);
      body.put("createdAt", item.createdAt.toString());
      assertThat(http.post("/api/v1/items", HttpJson.json(body)).status()).isEqualTo(201);
      items.add(item);
    }
    for (int round = 0; round < 3; round++) {
      List<String> events = new ArrayList<>();
      for (int e = 0; e < 150; e++) {
        Modelled item = items.get(random.nextInt(items.size()));
        boolean like = random.nextInt(3) > 0;
        events.add(
            "{\"biz\":\"div\",\"itemId\":"
                + item.id
                + ",\"type\":\""
                + (like ? "like" : "view")
                + "\"}");
        if (like) {
          item.likes++;
        } else {
          views.merge(item.id, 1L, Long::sum);
        }
      }
      postEvents(events.toArray(String[]::new));
      clock.set(NOW.plusSeconds(900L * (round + 1)));

      // The batch board and the live board capped alike.
      for (String board : List.of("div-capped", "ldiv-capped")) {
        Instant at = recomputed(board);
        List<Modelled> ranked = items.stream().sorted(byScore(i -> score(i, at))).toList();
        assertThat(ids(http, "/api/v1/boards/" + board + "?limit=6"))
            .as("round %d, %s", round, board)
            .containsExactlyElementsOf(capped(ranked, 2, 6));
      }

      Instant scaledAt = recomputed("div-scaled");
      Map<String, Long> sizes = new HashMap<>();
      for (Modelled item : items) {
        long n = item.likes + views.getOrDefault(item.id, 0L);
        item.tags.forEach(t -> sizes.merge(t, n, Long::sum));
      }
      Function<Modelled, Double> scaled =
          i ->
              score(i, scaledAt)
                  / Math.log10(10 + i.tags.stream().mapToLong(sizes::get).max().orElse(0));
      List<Long> expected = items.stream().sorted(byScore(scaled)).limit(6).map(i -> i.id).toList();
      assertThat(ids(http, "/api/v1/boards/div-scaled?limit=6"))
          .as("round %d, scaled", round)
          .containsExactlyElementsOf(expected);
      Answer scaledBoard = http.get("/api/v1/boards/div-scaled?limit=6");
      JsonNode first = scaledBoard.json().get("items").get(0);
      Modelled top =
          items.stream().filter(i -> i.id == first.get("itemId").asLong()).findFirst().get();
      assertThat(first.get("score").asDouble())
          .isCloseTo(scaled.apply(top), org.assertj.core.data.Offset.offset(1e-9));

      // The live board and the leaderboard scaled alike, merged from their segments' sets.
      for (String board : List.of("ldiv-scaled", "lbdiv-scaled")) {
        Instant at = recomputed(board);
        boolean leaderboard = board.startsWith("lb");
        Function<Modelled, Double> realtimeScaled =
            i ->
                (leaderboard ? (double) i.likes : score(i, at))
                    / Math.log10(10 + i.tags.stream().mapToLong(sizes::get).max().orElse(0));
        List<Modelled> ranked =
            items.stream()
                .filter(i -> !leaderboard || i.likes > 0)
                .sorted(byScore(realtimeScaled))
                .limit(6)
                .toList();
        assertThat(ids(http, "/api/v1/boards/" + board + "?limit=6"))
            .as("round %d, %s", round, board)
            .containsExactlyElementsOf(ranked.stream().map(i -> i.id).toList());
        JsonNode best = http.get("/api/v1/boards/" + board + "?limit=6").json().get("items").get(0);
        assertThat(best.get("score").asDouble())
            .as("round %d, %s: the first score", round, board)
            .isCloseTo(
                realtimeScaled.apply(ranked.getFirst()), org.assertj.core.data.Offset.offset(1e-9));
      }

      for (String family : List.of("div-capped-tag", "ldiv-capped-tag")) {
        Instant familyAt = recomputed(family);
        for (String tag : Set.of("big", "mid", "small", "tiny")) {
          List<Modelled> inTag =
              items.stream()
                  .filter(i -> i.tags.contains(tag))
                  .sorted(byScore(i -> score(i, familyAt)))
                  .toList();
          assertThat(ids(http, "/api/v1/boards/" + family + "/segments/" + tag))
              .as("round %d, %s segment %s", round, family, tag)
              .containsExactlyElementsOf(capped(inTag, 1, 3));
        }
      }
    }
  }

  /**
   * A realtime scaled board whose first candidates by their sets' bounds all lose: twenty items in
   * the large segment {@code big} and each in a small one of its own, fifty likes each, are bounded
   * by their small segment ({@code 50 / log10(60)}, 28) but score by {@code big} ({@code 50 /
   * log10(1010)}, 16.6); six items without a tag, twenty likes each, score 20 and take the board. A
   * merge that stopped once it held as many candidates as it needs (the board and the reserve,
   * eleven) would show one of the twenty. The window board scaled alike counts the same likes in
   * its window.
   */
  @Test
  void aScaledRealtimeBoard_mergesPastMisleadingBounds() {
    Instant created = NOW.minusSeconds(60);
    List<String> events = new ArrayList<>();
    long user = 1;
    for (long id = 1; id <= 26; id++) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("biz", "scl");
      body.put("id", id);
      body.put("authorId", 1);
      body.put("title", "s" + id);
      body.put("tags", id <= 20 ? List.of("big", "small" + id) : List.of());
      body.put("createdAt", created.toString());
      assertThat(http.post("/api/v1/items", HttpJson.json(body)).status()).isEqualTo(201);
      for (int like = 0; like < (id <= 20 ? 50 : 20); like++) {
        events.add(
            "{\"biz\":\"scl\",\"itemId\":" + id + ",\"type\":\"like\",\"userId\":" + user++ + "}");
        if (events.size() == 200) {
          postEvents(events.toArray(String[]::new));
          events.clear();
        }
      }
    }
    postEvents(events.toArray(String[]::new));
    for (String board : List.of("scl-live", "scl-liked", "scl-window")) {
      Instant at = recomputed(board);
      Answer read = http.get("/api/v1/boards/" + board + "?limit=1");
      assertThat(BoardReads.ids(read.json())).as(board).containsExactly(26L);
      double unscaled =
          !board.equals("scl-live")
              ? 20
              : 20 * Math.pow(2, -Duration.between(created, at).toMillis() / 3_600_000.0 / 6);
      assertThat(read.json().get("items").get(0).get("score").asDouble())
          .as(board)
          .isCloseTo(unscaled, org.assertj.core.data.Offset.offset(1e-9));
    }
  }

  /**
   * A niche segment crowded by items of a large one: thirteen items tagged {@code rust} and {@code
   * programming}, ten likes each, score {@code 10 / log10(10 + 440)} (2.64) by {@code programming}
   * (thirty more items there, ten views each); one item tagged {@code rust} alone, nine likes,
   * scores {@code 9 / log10(10 + 139)} (4.14) and takes the board, though twelve better items by
   * likes share its segment, more than a size-one board's set would keep if it kept its best by
   * likes only. The window board scaled alike weighs views 0, and counts them in n all the same.
   */
  @Test
  void aScaledRealtimeBoard_findsANicheItemBehindItemsOfALargerSegment() {
    Instant created = NOW.minusSeconds(60);
    List<String> events = new ArrayList<>();
    long user = 1;
    for (long id = 1; id <= 44; id++) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("biz", "crowd");
      body.put("id", id);
      body.put("authorId", 1);
      body.put("title", "c" + id);
      body.put(
          "tags",
          id <= 13
              ? List.of("rust", "programming")
              : id == 14 ? List.of("rust") : List.of("programming"));
      body.put("createdAt", created.toString());
      assertThat(http.post("/api/v1/items", HttpJson.json(body)).status()).isEqualTo(201);
      int times = id <= 13 ? 10 : id == 14 ? 9 : 10;
      String type = id <= 14 ? "like" : "view";
      for (int e = 0; e < times; e++) {
        events.add(
            "{\"biz\":\"crowd\",\"itemId\":"
                + id
                + ",\"type\":\""
                + type
                + "\",\"userId\":"
                + user++
                + "}");
      }
    }
    for (int from = 0; from < events.size(); from += 200) {
      postEvents(events.subList(from, Math.min(events.size(), from + 200)).toArray(String[]::new));
    }
    for (String board : List.of("crowd-live", "crowd-liked", "crowd-window")) {
      Instant at = recomputed(board);
      Answer read = http.get("/api/v1/boards/" + board + "?limit=1");
      assertThat(BoardReads.ids(read.json())).as(board).containsExactly(14L);
      double unscaled =
          !board.equals("crowd-live")
              ? 9
              : 9 * Math.pow(2, -Duration.between(created, at).toMillis() / 3_600_000.0 / 6);
      assertThat(read.json().get("items").get(0).get("score").asDouble())
          .as(board)
          .isCloseTo(unscaled / Math.log10(10 + 139), org.assertj.core.data.Offset.offset(1e-9));
    }
  }

  private Instant recomputed(String board) {
    Answer answer = http.admin("/api/v1/admin/boards/" + board + "/recompute");
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return Instant.parse(answer.json().get("computedAt").asString());
  }

  /** The listing orders equal counts by the stored key, which the database compares as bytes. */
  private static final java.util.function.BiFunction<String, String, String> BOARD_KEY_ORDER =
      (name, segment) -> {
        // UTF-8 byte order equals code point order; Java's String order is UTF-16 unit order,
        // which differs only above U+FFFF (none here).
        return name + "/" + segment;
      };

  @Test
  void reads_nameTheBadField_requireASegment_andServeAnEmptySegmentAsVersionZero() {
    Answer family = http.get("/api/v1/boards/seg-tag");
    assertThat(family.status()).isEqualTo(400);
    assertThat(family.json().get("type").asString()).endsWith("/segment-required");
    assertThat(family.json().get("detail").asString()).contains("/api/v1/boards/seg-tag/segments");
    assertThat(family.header("Link")).contains("/api/v1/boards/seg-tag/segments");

    Answer plain = http.get("/api/v1/boards/seg-plain/segments/java");
    assertThat(plain.status()).isEqualTo(400);
    assertThat(plain.body()).contains("\"segment\"").contains("not segmented");

    for (String bad : List.of("x".repeat(33), "a%2Cb", "%20lead")) {
      Answer answer = http.get("/api/v1/boards/seg-tag/segments/" + bad);
      assertThat(answer.status()).as(bad).isEqualTo(400);
      assertThat(answer.body()).as(bad).contains("\"segment\"");
    }
    assertThat(http.get("/api/v1/boards/seg-author/segments/abc").status()).isEqualTo(400);
    assertThat(http.get("/api/v1/boards/seg-author/segments/007").status()).isEqualTo(400);
    assertThat(http.get("/api/v1/boards/seg-lang/segments/" + "x".repeat(65)).status())
        .isEqualTo(400);
    assertThat(http.get("/api/v1/boards/nope/segments/x").status()).isEqualTo(404);

    Answer empty = http.get("/api/v1/boards/seg-tag/segments/never-used");
    assertThat(empty.status()).as(empty.body()).isEqualTo(200);
    assertThat(empty.json().get("board").asString()).isEqualTo("seg-tag");
    assertThat(empty.json().get("segment").asString()).isEqualTo("never-used");
    assertThat(empty.json().get("version").asLong()).isZero();
    assertThat(empty.json().get("items")).isEmpty();
    assertThat(empty.header("ETag")).isEqualTo("\"0\"");
  }

  @Test
  void aSegmentRead_hasETags_sources_andCursorPages() {
    for (long id = 1; id <= 6; id++) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("biz", "segc");
      body.put("id", id);
      body.put("authorId", 3);
      body.put("title", "c" + id);
      body.put("tags", List.of("pages"));
      body.put("createdAt", NOW.minusSeconds(60 + id).toString());
      assertThat(http.post("/api/v1/items", HttpJson.json(body)).status()).isEqualTo(201);
    }
    List<String> events = new ArrayList<>();
    for (long id = 1; id <= 6; id++) {
      for (int like = 0; like < id; like++) {
        events.add("{\"biz\":\"segc\",\"itemId\":" + id + ",\"type\":\"like\"}");
      }
    }
    postEvents(events.toArray(String[]::new));
    assertThat(http.admin("/api/v1/admin/boards/segc-tag/recompute").status()).isEqualTo(200);
    Answer first = http.get("/api/v1/boards/segc-tag/segments/pages");
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.json().get("segment").asString()).isEqualTo("pages");
    assertThat(ids(http, "/api/v1/boards/segc-tag/segments/pages")).containsExactly(6L, 5L, 4L, 3L);
    String etag = first.header("ETag");
    assertThat(first.header("X-Hotrank-Source")).isIn("local", "redis", "db");
    assertThat(first.header("Cache-Control")).contains("max-age");
    assertThat(http.get("/api/v1/boards/segc-tag/segments/pages", "If-None-Match", etag).status())
        .isEqualTo(304);
    Answer page1 = http.get("/api/v1/boards/segc-tag/segments/pages?cursor=&limit=3");
    assertThat(page1.status()).as(page1.body()).isEqualTo(200);
    assertThat(page1.json().get("segment").asString()).isEqualTo("pages");
    String next = page1.json().get("nextCursor").asString();
    Answer page2 = http.get("/api/v1/boards/segc-tag/segments/pages?limit=3&cursor=" + next);
    assertThat(page2.status()).as(page2.body()).isEqualTo(200);
    List<Long> paged = new ArrayList<>();
    page1.json().get("items").forEach(e -> paged.add(e.get("itemId").asLong()));
    page2.json().get("items").forEach(e -> paged.add(e.get("itemId").asLong()));
    assertThat(paged).containsExactly(6L, 5L, 4L, 3L);
    Answer listing = http.get("/api/v1/boards/segc-tag/segments");
    assertThat(listing.json().get("segmentBy").asString()).isEqualTo("tag");
    assertThat(listing.json().get("segments").get(0).get("segment").asString()).isEqualTo("pages");
    assertThat(listing.json().get("segments").get(0).get("items").asInt()).isEqualTo(4);
  }

  private Answer control(String board, String path, String body) {
    return http.put("/api/v1/admin/boards/" + board + path, body, http.adminHeader());
  }

  /** The batch family and the live family of the same split, steered alike. */
  @ParameterizedTest
  @ValueSource(strings = {"segc-tag", "lsegc-tag", "wsegc-tag"})
  void controls_perSegmentAndPerFamily_showAtOnce_onBothInstances(String board) {
    // Items 11..16: 11..13 tagged red, 14..16 blue, 16 also red. Item i has i - 10 likes.
    for (long id = 11; id <= 16; id++) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("biz", "segc");
      body.put("id", id);
      body.put("authorId", 4);
      body.put("title", "k" + id);
      body.put(
          "tags", id <= 13 ? List.of("red") : id == 16 ? List.of("blue", "red") : List.of("blue"));
      body.put("createdAt", NOW.minusSeconds(60 + id).toString());
      assertThat(http.post("/api/v1/items", HttpJson.json(body)).status()).isEqualTo(201);
    }
    List<String> events = new ArrayList<>();
    for (long id = 11; id <= 16; id++) {
      for (int like = 0; like < id - 10; like++) {
        events.add("{\"biz\":\"segc\",\"itemId\":" + id + ",\"type\":\"like\"}");
      }
    }
    postEvents(events.toArray(String[]::new));
    assertThat(http.admin("/api/v1/admin/boards/" + board + "/recompute").status()).isEqualTo(200);
    String red = "/api/v1/boards/" + board + "/segments/red";
    String blue = "/api/v1/boards/" + board + "/segments/blue";
    TestPropertySource declared =
        SegmentBoardsContract.class.getAnnotation(TestPropertySource.class);
    try (SecondInstance second =
        SecondInstance.start(
            environment,
            clock,
            java.util.Arrays.stream(declared.properties())
                .map(p -> "--" + p)
                .toArray(String[]::new))) {
      HttpJson other = second.http();
      assertThat(ids(http, red)).containsExactly(16L, 13L, 12L, 11L);
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(ids(other, red)).containsExactly(16L, 13L, 12L, 11L));
      assertThat(ids(other, blue)).containsExactly(16L, 15L, 14L);

      // A pin on one segment: there only.
      Answer pinned =
          control(
              board,
              "/segments/red/controls/11",
              "{\"action\":\"pin\",\"position\":1,\"reason\":\"feature\"}");
      assertThat(pinned.status()).as(pinned.body()).isEqualTo(200);
      assertThat(pinned.json().get("segment").asString()).isEqualTo("red");
      assertThat(ids(http, red)).containsExactly(11L, 16L, 13L, 12L);
      await()
          .atMost(Duration.ofSeconds(1))
          .untilAsserted(() -> assertThat(ids(other, red)).containsExactly(11L, 16L, 13L, 12L));
      assertThat(ids(other, blue)).containsExactly(16L, 15L, 14L);

      // A block on the family: gone from every segment of the item.
      Answer blocked = control(board, "/controls/16", "{\"action\":\"block\",\"reason\":\"spam\"}");
      assertThat(blocked.status()).as(blocked.body()).isEqualTo(200);
      assertThat(ids(http, red)).containsExactly(11L, 13L, 12L);
      assertThat(ids(http, blue)).containsExactly(15L, 14L);
      await()
          .atMost(Duration.ofSeconds(1))
          .untilAsserted(
              () -> {
                assertThat(ids(other, red)).containsExactly(11L, 13L, 12L);
                assertThat(ids(other, blue)).containsExactly(15L, 14L);
              });

      // A segment pin of a family-blocked item: the block wins.
      Answer overruled =
          control(
              board,
              "/segments/blue/controls/16",
              "{\"action\":\"pin\",\"position\":1,\"reason\":\"try\"}");
      assertThat(overruled.status()).as(overruled.body()).isEqualTo(200);
      assertThat(ids(http, blue)).containsExactly(15L, 14L);

      // Lifting the family block brings the item back, pinned where its segment pinned it.
      assertThat(
              http.delete("/api/v1/admin/boards/" + board + "/controls/16", http.adminHeader())
                  .status())
          .isEqualTo(204);
      assertThat(ids(http, blue)).containsExactly(16L, 15L, 14L);
      assertThat(ids(http, red)).containsExactly(11L, 16L, 13L, 12L);
      await()
          .atMost(Duration.ofSeconds(1))
          .untilAsserted(() -> assertThat(ids(other, red)).containsExactly(11L, 16L, 13L, 12L));

      // A family pin applies only in the segments its item belongs to: 14 is blue only.
      Answer familyPin =
          control(
              board, "/controls/14", "{\"action\":\"pin\",\"position\":1,\"reason\":\"feature\"}");
      assertThat(familyPin.status()).as(familyPin.body()).isEqualTo(200);
      assertThat(ids(http, blue)).containsExactly(14L, 16L, 15L);
      assertThat(ids(http, red)).containsExactly(11L, 16L, 13L, 12L);
      assertThat(
              http.delete("/api/v1/admin/boards/" + board + "/controls/14", http.adminHeader())
                  .status())
          .isEqualTo(204);

      // A recompute keeps every control applied.
      assertThat(
              control(board, "/controls/14", "{\"action\":\"pin\",\"position\":1,\"reason\":\"r\"}")
                  .status())
          .isEqualTo(200);
      assertThat(http.admin("/api/v1/admin/boards/" + board + "/recompute").status())
          .isEqualTo(200);
      assertThat(ids(http, red)).containsExactly(11L, 16L, 13L, 12L);
      assertThat(ids(http, blue)).containsExactly(14L, 16L, 15L);

      // The segment's own controls are listed under it, and a bad segment is a 400 naming it.
      Answer listed =
          http.get("/api/v1/admin/boards/" + board + "/segments/red/controls", http.adminHeader());
      assertThat(listed.status()).isEqualTo(200);
      assertThat(listed.json().get("controls")).hasSize(1);
      Answer bad =
          control(board, "/segments/a%2Cb/controls/11", "{\"action\":\"block\",\"reason\":\"x\"}");
      assertThat(bad.status()).isEqualTo(400);
      assertThat(bad.body()).contains("\"segment\"");
    }
  }
}
