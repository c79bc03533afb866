package io.hotrank.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardKind;
import io.hotrank.board.SegmentBy;
import io.hotrank.core.score.HotScore;
import io.hotrank.core.score.Weights;
import io.hotrank.event.EventType;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.item.ItemCards;
import io.hotrank.support.SharedRedis;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.support.CronExpression;

/**
 * A scaled window board's store on a real Redis, driven directly: a segment's best members read
 * from a large untrimmed snapshot and the bucket after it without a union of the whole snapshot
 * equal what the union reads, ties with the last included; and each segment's events over the
 * window are counted once per fold.
 */
@Tag("cluster")
class WindowFamilyStoreTest {

  private static final long HOUR = 3_600_000;

  /** A bucket well inside the window of every run. */
  private static final long BUCKET = 500_000;

  private final SharedRedis redis = new SharedRedis();

  /** Items below 1,000 are tagged {@code t}, the others {@code u}. */
  private final ItemCards cards =
      new ItemCards() {
        @Override
        public Map<Long, Labels> labels(String biz, Collection<Long> ids) {
          Map<Long, Labels> labels = new HashMap<>();
          ids.forEach(
              id ->
                  labels.put(
                      id, new Labels(1, List.of(id < 1_000 ? "t" : "u"), new TreeMap<>(), 1)));
          return labels;
        }

        @Override
        public Map<Long, Card> cards(String biz, Collection<Long> ids) {
          throw new UnsupportedOperationException();
        }

        @Override
        public Map<Long, Heading> headings(String biz, Collection<Long> ids) {
          throw new UnsupportedOperationException();
        }

        @Override
        public long writesSeen() {
          return 0;
        }

        @Override
        public Duration trustedFor() {
          return Duration.ZERO;
        }
      };

  private final WindowFamilyStore store =
      new WindowFamilyStore(
          redis.template(), new RealtimeKeys(redis.prefix()), cards, Clock.systemUTC());

  private final BoardDefinition board =
      new BoardDefinition(
          "swin",
          "article",
          "window",
          HotScore.decay(Weights.likesOnly(), Duration.ofHours(6)),
          Duration.ofHours(12),
          5,
          "* * * * * *",
          CronExpression.parse("* * * * * *"),
          Duration.ofSeconds(1),
          new BoardKind.Window(Duration.ofHours(1), null),
          Weights.likesOnly(),
          3,
          null,
          0,
          new SegmentBy.Tag(),
          BoardDefinition.Trust.RAW,
          BoardDefinition.Review.OFF,
          null,
          BoardDefinition.Explain.PUBLIC);

  @AfterEach
  void close() {
    redis.close();
  }

  private long seq = 1;

  /** {@code likes} likes of each item, at {@code atMillis}. */
  private List<FoldedEvent> likes(Map<Long, Integer> likes, long atMillis) {
    List<FoldedEvent> events = new ArrayList<>();
    likes.forEach(
        (id, n) -> {
          for (int i = 0; i < n; i++) {
            events.add(
                FoldedEvent.atFullWeight(
                    new LoggedEvent(seq, "article", id, EventType.LIKE, seq, atMillis)));
            seq++;
          }
        });
    return events;
  }

  @Test
  void aLargeSnapshot_isReadAsItsUnion_andEachSegmentsEventsCountOnce() {
    long keep = ScoredEntries.keep(board);
    assertThat(keep).isEqualTo(ScaledBoards.EVERY_MEMBER); // a scaled window keeps every member
    Map<Long, Integer> first = new TreeMap<>();
    for (long id = 1; id <= 60; id++) {
      first.put(id, (int) id);
    }
    for (long id = 61; id <= 64; id++) {
      first.put(id, 58); // tied with item 58
    }
    // In u: one item of 100, ten of 50 and twenty below; the bucket after lifts item 1009 to 50.
    first.put(1100L, 100);
    for (long id = 1011; id <= 1020; id++) {
      first.put(id, 50);
    }
    for (long id = 1021; id <= 1040; id++) {
      first.put(id, (int) (id - 1020));
    }
    long inFirst = BUCKET * HOUR + 1_000;
    assertThat(store.apply(board, 1, 0L, likes(first, inFirst), inFirst, (int) keep))
        .isEqualTo("applied");
    long inSecond = (BUCKET + 1) * HOUR + 1_000;
    assertThat(store.build(board, inSecond, (int) keep)).isEqualTo(2);
    Map<Long, Integer> second = Map.of(3L, 100, 50L, 15, 62L, 1, 1009L, 50);
    List<FoldedEvent> secondEvents = likes(second, inSecond);
    assertThat(store.apply(board, 2, 1L, secondEvents, inSecond, (int) keep)).isEqualTo("applied");
    // The same fold again (a retry, another instance) counts nothing twice.
    assertThat(store.apply(board, 2, 1L, secondEvents, inSecond, (int) keep)).isEqualTo("done");

    Map<String, Map<Long, Double>> scores = new HashMap<>();
    Map<String, Long> events = new HashMap<>();
    for (Map<Long, Integer> fold : List.of(first, second)) {
      fold.forEach(
          (id, n) -> {
            String segment = id < 1_000 ? "t" : "u";
            scores
                .computeIfAbsent(segment, k -> new HashMap<>())
                .merge(id, (double) n, Double::sum);
            events.merge(segment, (long) n, Long::sum);
          });
    }
    // 2 and 4 read from the snapshot's first members (68 of them, more than four times what is
    // asked and the bucket's three), 30 by the union; each with every member tied with its last.
    // In u, 2 reads the snapshot's first three and the tie with the bucket's item reaches past
    // them.
    for (int limit : List.of(1, 2, 4, 7, 30)) {
      Map<String, List<Scored>> tops =
          store.tops(board, inSecond + 1_000, Map.of("t", limit, "u", limit));
      assertThat(tops).isNotNull();
      for (String segment : List.of("t", "u")) {
        assertThat(tops.get(segment))
            .as("%s, limit %d", segment, limit)
            .isEqualTo(model(scores.get(segment), limit));
      }
    }
    WindowFamilyStore.Sizes sizes = store.sizes(board, inSecond + 1_000);
    assertThat(sizes).isNotNull();
    assertThat(sizes.segments()).containsExactlyInAnyOrder("t", "u");
    assertThat(sizes.events()).isEqualTo(events);
  }

  /**
   * The best {@code limit} as a union's read: by score, equal scores by member text, last first;
   * when full, every member tied with the last, up to four times the limit.
   */
  private static List<Scored> model(Map<Long, Double> scores, int limit) {
    List<Scored> all =
        scores.entrySet().stream()
            .map(e -> new Scored(e.getKey(), e.getValue()))
            .sorted(
                Comparator.comparingDouble(Scored::score)
                    .thenComparing(s -> Long.toString(s.itemId()))
                    .reversed())
            .toList();
    if (all.size() <= limit) {
      return all;
    }
    double last = all.get(limit - 1).score();
    return all.stream().filter(s -> s.score() >= last).limit(4L * limit).toList();
  }
}
