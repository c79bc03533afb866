package io.hotrank.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardKind;
import io.hotrank.board.SegmentBy;
import io.hotrank.core.score.HotScore;
import io.hotrank.core.score.Weights;
import io.hotrank.support.SharedRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.support.CronExpression;

/**
 * A live family's store on a real Redis, driven directly: a fold of more items than one script
 * takes is written in parts that keep the fold number until the last, and a fold whose previous the
 * family does not hold writes no part.
 */
@Tag("cluster")
class LiveFamilyStoreTest {

  private final SharedRedis redis = new SharedRedis();
  private final LiveFamilyStore store =
      new LiveFamilyStore(redis.template(), new RealtimeKeys(redis.prefix()));
  private final BoardDefinition board =
      new BoardDefinition(
          "fam",
          "article",
          "decay",
          HotScore.decay(Weights.likesOnly(), Duration.ofHours(6)),
          Duration.ofDays(2),
          10,
          "* * * * * *",
          CronExpression.parse("* * * * * *"),
          Duration.ofSeconds(1),
          new BoardKind.Live(),
          Weights.likesOnly(),
          3,
          new SegmentBy.Tag(),
          0,
          null,
          BoardDefinition.Trust.RAW,
          BoardDefinition.Review.OFF,
          null,
          BoardDefinition.Explain.PUBLIC);

  @AfterEach
  void close() {
    redis.close();
  }

  /** Items 1..n, odd ones tagged a, even ones b, item i keyed i. */
  private static List<LiveFamilyStore.Placed> items(int n, double offset) {
    List<LiveFamilyStore.Placed> items = new ArrayList<>();
    for (long id = 1; id <= n; id++) {
      items.add(
          new LiveFamilyStore.Placed(
              id, 1_000_000L + id, id + offset, 1, Set.of(id % 2 == 1 ? "a" : "b")));
    }
    return items;
  }

  private List<Long> top(String segment, int n) {
    Map<String, Integer> wanted = new LinkedHashMap<>();
    wanted.put(segment, n);
    Map<String, LiveFamilyStore.SegmentTop> tops = store.top(board, wanted);
    assertThat(tops).isNotNull();
    return tops.get(segment).ranked().stream().map(LiveStore.Ranked::itemId).toList();
  }

  @Test
  void aFoldLargerThanAScript_isWrittenInParts_andRecordedByItsLast() {
    int n = 2 * LiveFamilyStore.PART + 500;
    store.start(board, 5);
    String outcome =
        store.apply(board, LiveFamilyStore.Mode.FOLD, 6, 5L, 10_000, 10_000, 0, items(n, 0));
    assertThat(outcome).isEqualTo("applied");
    assertThat(store.applied(board)).isEqualTo(6L);
    assertThat(top("a", 3)).containsExactly((long) n - 1, (long) n - 3, (long) n - 5);
    assertThat(top("b", n)).hasSize(n / 2);

    // A fold whose previous the family does not hold: no part is written.
    String behind =
        store.apply(
            board, LiveFamilyStore.Mode.FOLD, 8, 7L, 10_000, 10_000, 0, items(n, -1_000_000));
    assertThat(behind).isEqualTo("behind:6");
    assertThat(store.applied(board)).isEqualTo(6L);
    assertThat(top("a", 1)).containsExactly((long) n - 1);

    // The same fold again: done, nothing written twice.
    assertThat(store.apply(board, LiveFamilyStore.Mode.FOLD, 6, 5L, 10_000, 10_000, 0, items(n, 5)))
        .isEqualTo("done");
    assertThat(store.applied(board)).isEqualTo(6L);

    // Trimmed to what a segment keeps: the best, with the best trimmed member as its floor.
    assertThat(store.apply(board, LiveFamilyStore.Mode.FOLD, 7, 6L, 100, 100, 0, items(n, 0)))
        .isEqualTo("applied");
    assertThat(top("a", n)).hasSize(100).startsWith((long) n - 1);
    Map<String, Integer> wanted = Map.of("a", 1);
    assertThat(store.top(board, wanted).get("a").trimmed()).isTrue();
  }

  /**
   * With more segments changed than a look takes, the segments named first (read lately) are taken
   * first, those that changed; the rest of the look is taken from the others, and with no new
   * changes every one is taken within a few looks.
   */
  @Test
  void aLook_takesTheSegmentsReadFirst_thenTheOthers() {
    store.start(board, 5);
    List<LiveFamilyStore.Placed> items = new ArrayList<>();
    for (long id = 1; id <= 60; id++) {
      items.add(new LiveFamilyStore.Placed(id, 1_000_000L + id, (double) id, 1, Set.of("s" + id)));
    }
    assertThat(store.apply(board, LiveFamilyStore.Mode.FOLD, 6, 5L, 100, 100, 0, items))
        .isEqualTo("applied");
    LiveFamilyStore.Taken first =
        store.take(board, 0, 100, 3, 10, List.of("s7", "s-never", "s42", "s60"));
    assertThat(first.changed()).hasSize(10);
    assertThat(first.changed().subList(0, 3)).containsExactly("s7", "s42", "s60");
    store.published(board);
    java.util.Set<String> seen = new java.util.HashSet<>(first.changed());
    for (int look = 0; look < 5; look++) {
      // The segments read are published already: the others go in turn.
      LiveFamilyStore.Taken next = store.take(board, 0, 100, 3, 10, List.of("s7", "s42"));
      assertThat(next.changed()).hasSize(10).doesNotContain("s7", "s42");
      store.published(board);
      seen.addAll(next.changed());
    }
    assertThat(seen).hasSize(60);
    assertThat(store.take(board, 0, 100, 3, 10, List.of("s7")).changed()).isEmpty();
  }
}
