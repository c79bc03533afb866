package io.hotrank.ingest.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.ingest.log.FoldCursor.Gap;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class FoldCursorTest {

  private static final FoldCursor START = new FoldCursor(0, List.of(), 0);

  @Test
  void contiguousRows_moveThePosition_withoutGaps() {
    FoldCursor.Advance a = START.advance(new long[] {1, 2, 3}, 3, 100, 1000);
    assertThat(a.cursor()).isEqualTo(new FoldCursor(3, List.of(), 1));
    assertThat(a.folded()).containsExactly(new long[] {1, 3});
    assertThat(a.givenUp()).isEmpty();
  }

  @Test
  void missingSeqs_becomeGaps_andAreFilledLater() {
    FoldCursor.Advance first = START.advance(new long[] {1, 4, 7}, 7, 100, 1000);
    assertThat(first.cursor().gaps()).containsExactly(new Gap(2, 3, 100), new Gap(5, 6, 100));
    FoldCursor.Advance second = first.cursor().advance(new long[] {3, 5, 8}, 8, 200, 1000);
    assertThat(second.cursor().position()).isEqualTo(8);
    assertThat(second.cursor().gaps()).containsExactly(new Gap(2, 2, 100), new Gap(6, 6, 100));
    assertThat(second.folded())
        .containsExactly(new long[] {3, 3}, new long[] {5, 5}, new long[] {8, 8});
  }

  @Test
  void oldGaps_areGivenUp_butNeverForWantOfRoom() {
    FoldCursor.Advance first = START.advance(new long[] {2}, 2, 100, 1000);
    FoldCursor.Advance timedOut = first.cursor().advance(new long[] {}, 2, 1101, 1000);
    assertThat(timedOut.cursor().gaps()).isEmpty();
    assertThat(timedOut.givenUp()).containsExactly(new Gap(1, 1, 100));

    // Never dropped for want of room: a fold takes fewer rows instead.
    FoldCursor withGap = START.advance(new long[] {2}, 2, 100, 1000).cursor();
    assertThat(withGap.rowsWithinGaps(new long[] {3, 5, 6, 8}, 2)).isEqualTo(3);
    assertThat(withGap.rowsWithinGaps(new long[] {3, 4}, 1)).isEqualTo(2);
    assertThat(withGap.rowsWithinGaps(new long[] {4}, 1)).isZero();
  }

  @Test
  void aReadEndingInMissingSeqs_recordsThemUpToTheLastSeqRead() {
    // readTo is the last seq the read returned; rows above it are simply not read yet.
    FoldCursor.Advance a = START.advance(new long[] {1}, 1, 100, 1000);
    assertThat(a.cursor().gaps()).isEmpty();
    assertThat(a.cursor().position()).isEqualTo(1);
  }

  @Test
  void textForms_roundTrip() {
    FoldCursor cursor = new FoldCursor(9, List.of(new Gap(2, 3, 100), new Gap(5, 5, 7)), 4);
    assertThat(FoldCursor.parseGaps(cursor.gapsText())).isEqualTo(cursor.gaps());
    assertThat(FoldCursor.parseGaps("")).isEmpty();
    List<long[]> ranges = List.of(new long[] {1, 4}, new long[] {9, 9});
    assertThat(FoldCursor.parseRanges(FoldCursor.rangesText(ranges)))
        .containsExactlyElementsOf(ranges);
  }

  /**
   * Random visibility orders: rows become visible in any order, folds read what is visible; in the
   * end every seq is folded exactly once, and none is lost while its gap is open.
   */
  @Test
  void randomVisibilityOrders_foldEverySeqExactlyOnce() {
    Random random = new Random(7);
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + random.nextInt(60);
      List<Long> order = new ArrayList<>();
      for (long s = 1; s <= n; s++) {
        order.add(s);
      }
      // Mostly ascending with local shuffles, as concurrent commits are.
      for (int i = 0; i < n; i++) {
        int j = Math.min(n - 1, i + random.nextInt(4));
        java.util.Collections.swap(order, i, j);
      }
      TreeSet<Long> visible = new TreeSet<>();
      List<Long> folded = new ArrayList<>();
      FoldCursor cursor = START;
      int shown = 0;
      long now = 0;
      for (int round = 0; folded.size() < n; round++) {
        assertThat(round).as("rounds before every seq was folded").isLessThan(10_000);
        int more = random.nextInt(5);
        for (int k = 0; k < more && shown < n; k++) {
          visible.add(order.get(shown++));
        }
        List<Long> read = new ArrayList<>();
        for (Gap g : cursor.gaps()) {
          read.addAll(visible.subSet(g.from(), true, g.to(), true));
        }
        List<Long> after = new ArrayList<>(visible.tailSet(cursor.position(), false));
        after = after.subList(0, Math.min(after.size(), 1 + random.nextInt(5)));
        // A cap of three gaps: the fold takes fewer rows rather than drop a gap.
        after =
            after.subList(
                0, cursor.rowsWithinGaps(after.stream().mapToLong(Long::longValue).toArray(), 3));
        read.addAll(after);
        long readTo = after.isEmpty() ? cursor.position() : after.getLast();
        FoldCursor.Advance a =
            cursor.advance(
                read.stream().mapToLong(Long::longValue).toArray(), readTo, now++, 1_000_000);
        folded.addAll(read);
        cursor = a.cursor();
        assertThat(a.givenUp()).isEmpty();
      }
      assertThat(folded).doesNotHaveDuplicates().hasSize(n);
      assertThat(cursor.gaps()).isEmpty();
    }
  }
}
