package io.hotrank.board.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.support.TestBoardProperties;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The segments of a family that an instance holds (read there): what a live family's look takes
 * first. Only that family's, at most as many as asked, and none that was never read.
 */
class LocalBoardsTest {

  private final LocalBoards local = new LocalBoards(event -> {}, TestBoardProperties.defaults());

  private void read(String family, String segment) {
    local.segment(
        BoardSnapshot.key(family, segment),
        key ->
            BoardSnapshot.of(
                family, segment, 1, Instant.EPOCH, List.<BoardEntry>of(), List.of(), 50));
  }

  @Test
  void theSegmentsOfAFamilyHeld_areTheOnesRead_atMostAsManyAsAsked() {
    for (int i = 0; i < 30; i++) {
      read("by-tag", "t" + i);
    }
    read("by-tagx", "t99"); // another family whose name starts alike
    read("by-lang", "en");
    assertThat(local.segmentsOf("by-tag", 100))
        .hasSize(30)
        .allMatch(s -> s.matches("t([0-9]|[12][0-9])"));
    assertThat(local.segmentsOf("by-tag", 10)).hasSize(10);
    assertThat(local.segmentsOf("by-lang", 10)).containsExactly("en");
    assertThat(local.segmentsOf("by-author", 10)).isEmpty();
  }
}
