package io.hotrank.board;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BoardDefinitionTest {

  private static BoardSpec spec(
      String name, String algorithm, Map<String, Double> weights, Integer size, String refresh) {
    return new BoardSpec(
        name,
        "article",
        algorithm,
        null,
        null,
        weights,
        Duration.ofDays(1),
        size,
        refresh,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  private static BoardSpec live(String algorithm) {
    return new BoardSpec(
        "l", "article", algorithm, null, null, null, null, null, null, "live", null, null, null,
        null, null);
  }

  @Test
  void liveBoards_takeRedditAndDecay_andRefuseHackerNews_sayingWhy() {
    BoardDefinition decay = BoardDefinition.from(live("decay"), "p");
    assertThat(decay.kind()).isEqualTo(new BoardKind.Live());
    assertThat(decay.algorithm()).isEqualTo("decay");
    assertThat(decay.realtime()).isTrue();
    assertThat(decay.refresh()).isEqualTo("* * * * * *");
    assertThat(BoardDefinition.from(live("reddit"), "p").logarithmicScore()).isTrue();
    assertThatThrownBy(() -> BoardDefinition.from(live(null), "hotrank.boards[2]"))
        .hasMessageContaining("hotrank.boards[2].type=live needs algorithm reddit or decay")
        .hasMessageContaining("changes as they age");
  }

  @Test
  void maxPins_defaultsToThree_atMostTheSize_andIsValidated() {
    assertThat(BoardDefinition.from(spec("p", null, null, 10, "@hourly"), "p").maxPins())
        .isEqualTo(3);
    assertThat(BoardDefinition.from(spec("p", null, null, 2, "@hourly"), "p").maxPins())
        .isEqualTo(2);
    BoardSpec tooMany =
        new BoardSpec(
            "p", "article", null, null, null, null, null, 4, "@hourly", null, null, null, null, 5,
            null);
    assertThatThrownBy(() -> BoardDefinition.from(tooMany, "hotrank.boards[7]"))
        .hasMessageContaining("hotrank.boards[7].max-pins=5 must be between 0 and the size, 4");
  }

  @Test
  void validBoard_getsDefaultsAndItsRefreshInterval() {
    BoardDefinition board =
        BoardDefinition.from(spec("hot", null, null, null, "0 */5 * * * *"), "p");
    assertThat(board.algorithm()).isEqualTo("hacker-news");
    assertThat(board.size()).isEqualTo(100);
    assertThat(board.refreshInterval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(BoardDefinition.from(spec("d", "decay", null, 5, "@hourly"), "p").refreshInterval())
        .isEqualTo(Duration.ofHours(1));
  }

  @Test
  void invalidBoard_isRefusedWithEveryBadPropertyNamed() {
    assertThatThrownBy(
            () ->
                BoardDefinition.from(
                    spec("Bad Name", "pagerank", Map.of("like", 1.0), 0, "every minute"),
                    "hotrank.boards[2]"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hotrank.boards[2].name='Bad Name'")
        .hasMessageContaining("hotrank.boards[2].size=0")
        .hasMessageContaining("hotrank.boards[2].refresh='every minute'")
        .hasMessageContaining("hotrank.boards[2].algorithm='pagerank'");
  }

  @Test
  void unknownWeight_isRefusedNamingTheBoard() {
    assertThatThrownBy(
            () ->
                BoardDefinition.from(
                    spec("w", "reddit", Map.of("luv", 1.0), 5, null), "hotrank.boards[0]"))
        .hasMessageContaining("hotrank.boards[0]")
        .hasMessageContaining("luv");
  }

  @Test
  void duplicateNames_areRefused() {
    BoardSpec a = spec("same", null, null, 5, null);
    assertThatThrownBy(() -> new BoardRegistry(new BoardSpec.Declared(List.of(a, a))))
        .hasMessageContaining("hotrank.boards[1].name='same' is declared twice");
  }
}
