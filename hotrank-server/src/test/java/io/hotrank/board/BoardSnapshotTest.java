package io.hotrank.board;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotrank.item.Item;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class BoardSnapshotTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static List<BoardEntry> entries(int n) {
    List<BoardEntry> entries = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      entries.add(
          new BoardEntry(
              i,
              "article",
              100 + i,
              1.0 / i + 1e-17 * i,
              "title \"" + i + "\" \u00e9\u4e2d",
              7,
              Instant.parse("2026-01-02T03:04:05.678Z"),
              new Item.Counts(i, 2L * i, 3, 4, 5, 6)));
    }
    return entries;
  }

  @Test
  void payloadParsedBack_rendersByteIdenticalBodies() {
    BoardSnapshot original =
        BoardSnapshot.of("b", 42, Instant.parse("2026-01-02T03:04:05Z"), entries(7), 3);
    BoardSnapshot parsed = BoardSnapshot.parse(original.payload(), 3, "redis");
    assertThat(parsed.version()).isEqualTo(42);
    assertThat(parsed.entries()).isEqualTo(original.entries());
    for (int offset = 0; offset < 8; offset++) {
      for (int limit = 1; limit < 9; limit++) {
        assertThat(parsed.body(offset, limit)).isEqualTo(original.body(offset, limit));
      }
    }
  }

  @Test
  void controlField_isRenderedOnlyWhenPresent_andParsedBack() {
    List<BoardEntry> entries = new ArrayList<>(entries(3));
    entries.set(
        0,
        entries
            .get(0)
            .withControl(4.0, new BoardEntry.Applied(ControlAction.BOOST, null, 2.0, 2.0)));
    entries.set(
        1,
        entries.get(1).withControl(0.5, new BoardEntry.Applied(ControlAction.PIN, 2, null, 0.5)));
    BoardSnapshot snapshot = BoardSnapshot.of("b", 3, Instant.EPOCH, entries, 3);
    JsonNode items = JSON.readTree(snapshot.payload()).get("items");
    assertThat(items.get(0).get("control").toString())
        .isEqualTo("{\"action\":\"boost\",\"factor\":2.0,\"baseScore\":2.0}");
    assertThat(items.get(1).get("control").toString())
        .isEqualTo("{\"action\":\"pin\",\"position\":2,\"baseScore\":0.5}");
    assertThat(items.get(2).has("control")).isFalse();
    BoardSnapshot parsed = BoardSnapshot.parse(snapshot.payload(), 3, "db");
    assertThat(parsed.entries()).isEqualTo(entries);
    assertThat(parsed.payload()).isEqualTo(snapshot.payload());
  }

  @Test
  void body_isValidJsonHoldingExactlyTheRequestedWindow() {
    BoardSnapshot snapshot = BoardSnapshot.of("b", 1, Instant.EPOCH, entries(5), 2);
    JsonNode window = JSON.readTree(snapshot.body(1, 3));
    assertThat(window.get("board").asString()).isEqualTo("b");
    assertThat(window.get("total").asInt()).isEqualTo(5);
    assertThat(window.get("items")).hasSize(3);
    assertThat(window.get("items").get(0).get("rank").asInt()).isEqualTo(2);
    assertThat(window.get("items").get(2).get("rank").asInt()).isEqualTo(4);
    assertThat(window.get("items").get(0).get("title").asString())
        .isEqualTo("title \"2\" \u00e9\u4e2d");
    assertThat(JSON.readTree(snapshot.body(0, 2)).get("items")).hasSize(2);
    assertThat(JSON.readTree(snapshot.body(4, 50)).get("items")).hasSize(1);
    assertThat(JSON.readTree(snapshot.body(5, 50)).get("items")).isEmpty();
  }

  @Test
  void emptyBoard_rendersAnEmptyItemList() {
    BoardSnapshot empty = BoardSnapshot.of("b", 3, Instant.EPOCH, List.of(), 50);
    assertThat(new String(empty.body(0, 50), StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"board\":\"b\",\"version\":3,\"computedAt\":\"1970-01-01T00:00:00Z\",\"total\":0,\"items\":[]}");
  }

  @Test
  void parse_rejectsADocumentThatIsNotABoard() {
    assertThatThrownBy(
            () ->
                BoardSnapshot.parse("{\"board\":\"b\"}".getBytes(StandardCharsets.UTF_8), 3, "db"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
