package io.hotrank.board.publish;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.ControlAction;
import io.hotrank.board.ControlsApplied;
import io.hotrank.item.Item;
import io.hotrank.item.ItemCards;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Applies a board's controls as a publish reads them from the database ({@link ControlsApplied}),
 * and looks up the items a control names that are not among the candidates: one query for their
 * display fields and counters ({@link ItemCards#cards}, which leaves deleted items out and reads
 * only the board's biz), scored as the board's kind scores them ({@link BoardKind#lookUpScore}): a
 * batch board at the computation's instant, the one its other entries were scored at.
 *
 * <p>Thread-safe.
 */
@Component
public class ControlledEntries {

  private final BoardControlStore controls;
  private final ItemCards items;
  private final Clock clock;

  ControlledEntries(BoardControlStore controls, ItemCards items, Clock clock) {
    this.controls = controls;
    this.items = items;
    this.clock = clock;
  }

  /**
   * The board's controls now in the database, expired ones included (callers filter with {@link
   * ControlsApplied#live}).
   *
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  public List<BoardControl> read(String board) {
    return controls.all(board);
  }

  /**
   * The controls that shape one segment board of a family, in one query: the family's (set on the
   * board's name, for every segment) and the segment's own. Where both name an item, a live block
   * wins wherever it was set; otherwise the segment's live control overrides the family's.
   *
   * @param segment null for a board that is one board: {@link #read(String)}
   */
  public List<BoardControl> read(String board, @Nullable String segment) {
    if (segment == null) {
      return read(board);
    }
    String own = BoardSnapshot.key(board, segment);
    Instant now = clock.instant();
    Map<Long, BoardControl> merged = new LinkedHashMap<>();
    for (BoardControl control : controls.all(List.of(board, own))) {
      merged.merge(control.itemId(), control, (a, b) -> stronger(a, b, own, now));
    }
    return List.copyOf(merged.values());
  }

  /**
   * {@link #read(String, String)} for many segments of one family in one query per 500 segments:
   * what a family's run publishing them together reads.
   *
   * @return each segment's controls, the family's merged in
   */
  public Map<String, List<BoardControl>> readAll(String board, List<String> segments) {
    Instant now = clock.instant();
    Map<String, List<BoardControl>> bySegment = new HashMap<>();
    for (int from = 0; from < segments.size(); from += 500) {
      List<String> chunk = segments.subList(from, Math.min(segments.size(), from + 500));
      List<String> keys = new java.util.ArrayList<>(chunk.size() + 1);
      keys.add(board);
      chunk.forEach(segment -> keys.add(BoardSnapshot.key(board, segment)));
      List<BoardControl> found = controls.all(keys);
      List<BoardControl> family = found.stream().filter(c -> c.board().equals(board)).toList();
      Map<String, List<BoardControl>> own = new HashMap<>();
      for (BoardControl control : found) {
        if (!control.board().equals(board)) {
          own.computeIfAbsent(control.board(), k -> new java.util.ArrayList<>()).add(control);
        }
      }
      for (String segment : chunk) {
        String key = BoardSnapshot.key(board, segment);
        Map<Long, BoardControl> merged = new LinkedHashMap<>();
        for (BoardControl control : family) {
          merged.put(control.itemId(), control);
        }
        for (BoardControl control : own.getOrDefault(key, List.of())) {
          merged.merge(control.itemId(), control, (a, b) -> stronger(a, b, key, now));
        }
        bySegment.put(segment, List.copyOf(merged.values()));
      }
    }
    return bySegment;
  }

  private static BoardControl stronger(BoardControl a, BoardControl b, String own, Instant now) {
    boolean aLive = ControlsApplied.live(a, now);
    boolean bLive = ControlsApplied.live(b, now);
    if (aLive != bLive) {
      return aLive ? a : b;
    }
    boolean aBlocks = a.action() == ControlAction.BLOCK;
    if (aBlocks != (b.action() == ControlAction.BLOCK)) {
      return aBlocks ? a : b;
    }
    return a.board().equals(own) ? a : b;
  }

  /**
   * The entries with the controls applied.
   *
   * @param scoredAt the instant the candidates were scored at
   * @param now the instant controls expire against
   * @param alsoLookUp items to rank if they are not candidates (a control just removed)
   */
  public ControlsApplied.Result apply(
      BoardDefinition board,
      List<BoardEntry> candidates,
      List<BoardControl> live,
      Instant scoredAt,
      Instant now,
      Collection<Long> alsoLookUp) {
    return ControlsApplied.split(
        board.size(),
        board.logarithmicScore(),
        candidates,
        live,
        now,
        alsoLookUp,
        ids -> lookUp(board, ids, live, scoredAt, now));
  }

  private Map<Long, BoardEntry> lookUp(
      BoardDefinition board, Set<Long> ids, List<BoardControl> live, Instant at, Instant now) {
    Map<Long, ControlAction> actions = new HashMap<>();
    for (BoardControl control : live) {
      if (ControlsApplied.live(control, now)) {
        actions.put(control.itemId(), control.action());
      }
    }
    Map<Long, BoardEntry> found = new HashMap<>();
    for (ItemCards.Card card : items.cards(board.biz(), ids).values()) {
      Double score =
          board
              .kind()
              .lookUpScore(
                  board,
                  card.counts(),
                  card.createdAtMillis(),
                  at,
                  actions.get(card.itemId()) == ControlAction.PIN);
      if (score == null) {
        continue;
      }
      found.put(
          card.itemId(),
          new BoardEntry(
              0,
              board.biz(),
              card.itemId(),
              score,
              card.title(),
              card.authorId(),
              Instant.ofEpochMilli(card.createdAtMillis()),
              Item.Counts.of(card.counts())));
    }
    return found;
  }
}
