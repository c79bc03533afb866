package io.hotrank.console;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** What the console's board pages show, built from a board's definition, snapshot and controls. */
final class BoardViews {

  private BoardViews() {}

  /**
   * One board in the list.
   *
   * @param version the version this instance serves; null when it holds none yet
   * @param origin where this instance's snapshot came from ({@code computed}, {@code redis}, {@code
   *     db}), as the API's {@code X-Hotrank-Origin}
   * @param reads this instance's reads of the board by layer ({@code local}, {@code redis}, {@code
   *     db}), from {@code hotrank.board.reads}
   */
  record Row(
      String name,
      String type,
      String biz,
      String algorithm,
      @Nullable Long version,
      @Nullable Instant computedAt,
      @Nullable String age,
      @Nullable String origin,
      Map<String, Long> reads) {}

  /**
   * One item of a board as the live table shows it.
   *
   * @param control the item's live control, if any
   */
  record Item(BoardEntry entry, @Nullable BoardControl control) {}

  static Row row(
      BoardDefinition board,
      @Nullable BoardSnapshot snapshot,
      Map<String, Long> reads,
      Instant now) {
    return new Row(
        board.name(),
        board.kind().configName(),
        board.biz(),
        board.algorithm(),
        snapshot == null ? null : snapshot.version(),
        snapshot == null ? null : snapshot.computedAt(),
        snapshot == null ? null : age(snapshot.computedAt(), now),
        snapshot == null ? null : snapshot.origin(),
        reads);
  }

  static List<Item> items(@Nullable BoardSnapshot snapshot, List<BoardControl> controls) {
    if (snapshot == null) {
      return List.of();
    }
    Map<Long, BoardControl> byItem = new LinkedHashMap<>();
    controls.forEach(c -> byItem.put(c.itemId(), c));
    return snapshot.entries().stream().map(e -> new Item(e, byItem.get(e.itemId()))).toList();
  }

  /** An age as people read it: {@code 42s}, {@code 3m 5s}, {@code 2h 10m}, {@code 4d 3h}. */
  static String age(Instant then, Instant now) {
    Duration d = Duration.between(then, now);
    if (d.isNegative()) {
      return "0s";
    }
    if (d.toMinutes() < 1) {
      return d.toSeconds() + "s";
    }
    if (d.toHours() < 1) {
      return d.toMinutes() + "m " + d.toSecondsPart() + "s";
    }
    if (d.toDays() < 1) {
      return d.toHours() + "h " + d.toMinutesPart() + "m";
    }
    return d.toDays() + "d " + d.toHoursPart() + "h";
  }
}
