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
        null,
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
        null, null, null, null, null, null, null, null);
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
            null, null, null, null, null, null, null);
    assertThatThrownBy(() -> BoardDefinition.from(tooMany, "hotrank.boards[7]"))
        .hasMessageContaining("hotrank.boards[7].max-pins=5 must be between 0 and the size, 4");
  }

  private static BoardSpec diverse(
      String type, String segmentBy, Integer maxPerAuthor, String scaleBy) {
    return new BoardSpec(
        "d",
        "article",
        "decay",
        null,
        null,
        null,
        null,
        10,
        null,
        type,
        null,
        null,
        null,
        null,
        segmentBy,
        maxPerAuthor,
        scaleBy,
        null,
        null,
        null,
        null);
  }

  @Test
  void segmentBy_maxPerAuthor_andScaleBy_areParsed_andTheirMistakesNamed() {
    BoardDefinition tags = BoardDefinition.from(diverse(null, "tag", 2, null), "p");
    assertThat(tags.segmentBy()).isEqualTo(new SegmentBy.Tag());
    assertThat(tags.maxPerAuthor()).isEqualTo(2);
    assertThat(BoardDefinition.from(diverse(null, "attribute:lang", null, null), "p").segmentBy())
        .isEqualTo(new SegmentBy.Attribute("lang"));
    assertThat(BoardDefinition.from(diverse(null, null, null, "author"), "p").scaleBy())
        .isEqualTo(new SegmentBy.Author());
    assertThatThrownBy(() -> BoardDefinition.from(diverse(null, "topic", 0, "tag"), "b[1]"))
        .hasMessageContaining("b[1].segment-by='topic' is unknown")
        .hasMessageContaining("b[1].max-per-author=0 must be between 1 and the size, 10");
    assertThatThrownBy(() -> BoardDefinition.from(diverse(null, "tag", 11, "tag"), "b[1]"))
        .hasMessageContaining("b[1].max-per-author=11 must be between 1 and the size, 10")
        .hasMessageContaining("b[1].scale-by applies to an unsegmented board");
    assertThatThrownBy(() -> BoardDefinition.from(diverse(null, "attribute:Lang", null, null), "b"))
        .hasMessageContaining("b.segment-by='attribute:Lang': the attribute key must match");
    assertThat(BoardDefinition.from(diverse("live", "tag", null, null), "b").segmented()).isTrue();
    assertThat(BoardDefinition.from(diverse("live", null, null, "tag"), "b").scaleBy())
        .isEqualTo(new SegmentBy.Tag());
    BoardSpec scaledWindow =
        new BoardSpec(
            "w",
            "article",
            null,
            null,
            null,
            null,
            Duration.ofHours(12),
            10,
            null,
            "window",
            Duration.ofHours(1),
            null,
            null,
            null,
            null,
            null,
            "attribute:lang",
            null,
            null,
            null,
            null);
    assertThat(BoardDefinition.from(scaledWindow, "b").scaleBy())
        .isEqualTo(new SegmentBy.Attribute("lang"));
  }

  @Test
  void aSegmentName_isValidatedByItsKind() {
    assertThat(new SegmentBy.Tag().invalid("java")).isNull();
    assertThat(new SegmentBy.Tag().invalid("x".repeat(33))).contains("at most 32");
    assertThat(new SegmentBy.Tag().invalid("a,b")).contains("comma");
    assertThat(new SegmentBy.Tag().invalid(" a")).contains("spaces");
    assertThat(new SegmentBy.Author().invalid("42")).isNull();
    assertThat(new SegmentBy.Author().invalid("042")).isNotNull();
    assertThat(new SegmentBy.Author().invalid("0")).isNull();
    assertThat(new SegmentBy.Tag().invalid("ci/cd")).contains("slash");
    assertThat(new SegmentBy.Tag().invalid("a;b")).contains("semicolon");
    assertThat(new SegmentBy.Tag().invalid("..")).isNotNull();
    assertThat(
            new SegmentBy.Tag()
                .segments(
                    new io.hotrank.item.ItemCards.Labels(
                        1, java.util.List.of("ok", "ci/cd", ".."), new java.util.TreeMap<>(), 1)))
        .containsExactly("ok");
    assertThat(new SegmentBy.Author().invalid("99999999999999999999")).isNotNull();
    assertThat(new SegmentBy.Attribute("lang").invalid("pt br")).isNull();
    assertThat(new SegmentBy.Attribute("lang").invalid("x".repeat(65))).contains("1 to 64");
    assertThat(new SegmentBy.Attribute("lang").invalid("a\u0001")).contains("control");
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

  private static BoardSpec trusting(String type, String trust) {
    return new BoardSpec(
        "t",
        "article",
        "decay",
        null,
        null,
        Map.of("like", 1.0, "dislike", -1.0),
        Duration.ofHours(1),
        null,
        null,
        type,
        null,
        "leaderboard".equals(type) ? "like" : null,
        null,
        null,
        null,
        null,
        null,
        trust,
        null,
        null,
        null);
  }

  @Test
  void trust_defaultsToTrusted_onEveryKind_andIsValidated() {
    BoardDefinition batch = BoardDefinition.from(trusting(null, null), "b");
    assertThat(batch.trust()).isEqualTo(BoardDefinition.Trust.TRUSTED);
    io.hotrank.item.Counters counters =
        new io.hotrank.item.Counters(
            new io.hotrank.core.score.Interactions(3, 0, 0, 0, 0, 1),
            new io.hotrank.core.score.Interactions(600, 0, 0, 0, 0, 1000));
    assertThat(batch.ranked(counters)).isEqualTo(counters.trusted());
    // The formula reads thousandths: 0.6 likes less 1 dislike, as 3 likes less 1 reads whole.
    java.time.Instant at = java.time.Instant.parse("2026-01-01T00:00:00Z");
    assertThat(batch.scoreAt(counters.trusted(), at.toEpochMilli(), at))
        .isCloseTo(-0.4, org.assertj.core.api.Assertions.within(1e-9));
    BoardDefinition raw = BoardDefinition.from(trusting(null, "raw"), "b");
    assertThat(raw.trust()).isEqualTo(BoardDefinition.Trust.RAW);
    assertThat(raw.ranked(counters)).isEqualTo(counters.raw());
    assertThat(raw.scoreAt(counters.raw(), at.toEpochMilli(), at))
        .isCloseTo(2.0, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(BoardDefinition.from(trusting("live", null), "b").trust())
        .isEqualTo(BoardDefinition.Trust.TRUSTED);
    assertThat(BoardDefinition.from(trusting("window", null), "b").trust())
        .isEqualTo(BoardDefinition.Trust.TRUSTED);
    assertThat(BoardDefinition.from(trusting("window", "raw"), "b").trust())
        .isEqualTo(BoardDefinition.Trust.RAW);
    BoardDefinition leaderboard = BoardDefinition.from(trusting("leaderboard", null), "b");
    assertThat(leaderboard.trust()).isEqualTo(BoardDefinition.Trust.TRUSTED);
    assertThat(leaderboard.kind().lookUpScore(leaderboard, counters.trusted(), 0, at, false))
        .as("a leaderboard's value in interactions: 0.6 likes")
        .isEqualTo(0.6);
    BoardDefinition rawLeaderboard = BoardDefinition.from(trusting("leaderboard", "raw"), "b");
    assertThat(rawLeaderboard.kind().lookUpScore(rawLeaderboard, counters.raw(), 0, at, false))
        .isEqualTo(3.0);
    assertThatThrownBy(() -> BoardDefinition.from(trusting(null, "maybe"), "hotrank.boards[1]"))
        .hasMessageContaining(
            "hotrank.boards[1].trust='maybe' is unknown; expected trusted or raw");
  }

  private static BoardSpec choosing(String review, String explain) {
    return new BoardSpec(
        "c", "article", null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, review, null, explain);
  }

  @Test
  void reviewAndExplain_takeTheirNames_yamlsOffAsOff_andNameWhatIsUnknown() {
    BoardDefinition defaults = BoardDefinition.from(choosing(null, null), "b");
    assertThat(defaults.review()).isEqualTo(BoardDefinition.Review.OFF);
    assertThat(defaults.explain()).isEqualTo(BoardDefinition.Explain.PUBLIC);
    BoardDefinition chosen = BoardDefinition.from(choosing("required", "operator"), "b");
    assertThat(chosen.review()).isEqualTo(BoardDefinition.Review.REQUIRED);
    assertThat(chosen.explain()).isEqualTo(BoardDefinition.Explain.OPERATOR);
    // YAML 1.1 reads an unquoted off as false.
    BoardDefinition off = BoardDefinition.from(choosing("false", "false"), "b");
    assertThat(off.review()).isEqualTo(BoardDefinition.Review.OFF);
    assertThat(off.explain()).isEqualTo(BoardDefinition.Explain.OFF);
    assertThatThrownBy(
            () -> BoardDefinition.from(choosing("later", "everyone"), "hotrank.boards[4]"))
        .hasMessageContaining(
            "hotrank.boards[4].review='later' is unknown; expected off, suspicious, required")
        .hasMessageContaining(
            "hotrank.boards[4].explain='everyone' is unknown; expected public, operator, off");
  }
}
