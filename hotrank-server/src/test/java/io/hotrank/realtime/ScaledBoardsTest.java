package io.hotrank.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.board.BoardEntry;
import io.hotrank.item.Item;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a scaled board's candidates show another board than the one published. */
class ScaledBoardsTest {

  private final ScaledBoards boards = new ScaledBoards(null, null, null, null, null, 0);

  private static List<BoardEntry> board(double... scores) {
    List<BoardEntry> entries = new java.util.ArrayList<>();
    for (int i = 0; i < scores.length; i++) {
      entries.add(
          new BoardEntry(
              i + 1,
              "b",
              i + 1,
              scores[i],
              "t" + i,
              1,
              Instant.EPOCH,
              new Item.Counts(i, 0, 0, 0, 0, 0)));
    }
    return entries;
  }

  @Test
  void scoresFallingTogether_areTheSameBoard_newDivisorsAreNot() {
    List<BoardEntry> published = board(9, 6, 3);
    // A decay board an hour later: every score by one factor.
    assertThat(boards.changed(published, board(4.5, 3, 1.5))).isFalse();
    assertThat(boards.changed(published, board(9, 6, 3))).isFalse();
    // A recount moved one item's divisor: same order and counters, other proportions.
    assertThat(boards.changed(published, board(9, 5, 3))).isTrue();
    assertThat(boards.changed(published, board(9, 6))).isTrue();
    assertThat(boards.changed(List.of(), List.of())).isFalse();
  }
}
