package io.hotrank.board.publish;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.BoardReview;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.ControlAction;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.SegmentBy;
import io.hotrank.item.Item;
import io.hotrank.item.ItemCards;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
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
  private final ObjectProvider<BoardReview> review;

  ControlledEntries(
      BoardControlStore controls,
      ItemCards items,
      Clock clock,
      ObjectProvider<BoardReview> review) {
    this.controls = controls;
    this.items = items;
    this.clock = clock;
    this.review = review;
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
   * The controls that shape one segment board of a family: the family's (set on the board's name)
   * and the segment's own, in one query. A family block applies in every segment; a family pin or
   * boost only in the segments its item belongs to (its labels are read for that). Where both name
   * an item, a live block wins wherever it was set; otherwise the segment's live control overrides
   * the family's.
   *
   * @param segment null for a board that is one board: {@link #read(String)}
   */
  public List<BoardControl> read(BoardDefinition board, @Nullable String segment) {
    if (segment == null) {
      return read(board.name());
    }
    return readAll(board, List.of(segment)).get(segment);
  }

  /**
   * {@link #read(BoardDefinition, String)} for many segments of one family in one query per 500
   * segments, and one query of the labels of the items the family's pins and boosts name: what a
   * family's run publishing them together reads.
   *
   * @return each segment's controls
   */
  public Map<String, List<BoardControl>> readAll(BoardDefinition board, List<String> segments) {
    String name = board.name();
    Instant now = clock.instant();
    Map<String, List<BoardControl>> bySegment = new HashMap<>();
    for (int from = 0; from < segments.size(); from += 500) {
      List<String> chunk = segments.subList(from, Math.min(segments.size(), from + 500));
      List<String> keys = new java.util.ArrayList<>(chunk.size() + 1);
      keys.add(name);
      chunk.forEach(segment -> keys.add(BoardSnapshot.key(name, segment)));
      List<BoardControl> found = controls.all(keys);
      List<BoardControl> family = found.stream().filter(c -> c.board().equals(name)).toList();
      Map<Long, Set<String>> memberOf = membership(board, family);
      Map<String, List<BoardControl>> own = new HashMap<>();
      for (BoardControl control : found) {
        if (!control.board().equals(name)) {
          own.computeIfAbsent(control.board(), k -> new java.util.ArrayList<>()).add(control);
        }
      }
      for (String segment : chunk) {
        String key = BoardSnapshot.key(name, segment);
        Map<Long, BoardControl> merged = new LinkedHashMap<>();
        for (BoardControl control : family) {
          if (control.action() == ControlAction.BLOCK
              || memberOf.getOrDefault(control.itemId(), Set.of()).contains(segment)) {
            merged.put(control.itemId(), control);
          }
        }
        for (BoardControl control : own.getOrDefault(key, List.of())) {
          merged.merge(control.itemId(), control, (a, b) -> stronger(a, b, key, now));
        }
        bySegment.put(segment, List.copyOf(merged.values()));
      }
    }
    return bySegment;
  }

  /** The segments each item a family pin or boost names belongs to now, from its labels. */
  private Map<Long, Set<String>> membership(BoardDefinition board, List<BoardControl> family) {
    SegmentBy split = board.segmentBy();
    List<Long> ids =
        family.stream()
            .filter(c -> c.action() != ControlAction.BLOCK)
            .map(BoardControl::itemId)
            .toList();
    if (split == null || ids.isEmpty()) {
      return Map.of();
    }
    Map<Long, Set<String>> memberOf = new HashMap<>();
    items
        .labels(board.biz(), ids)
        .forEach((id, labels) -> memberOf.put(id, split.segments(labels)));
    return memberOf;
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
   * The entries with the controls applied, and on a board under review ({@link
   * BoardDefinition#review()}) without the items its review holds ({@link BoardReview}): those are
   * kept in the reserve like blocked ones, where an approval finds them. An operator's pin wins
   * over a hold.
   *
   * @param key the board's key: its name, or {@code <name>/<segment>}
   * @param scoredAt the instant the candidates were scored at
   * @param now the instant controls expire against
   * @param alsoLookUp items to rank if they are not candidates (a control just removed)
   * @param record whether the review queue takes what is held (a publish), or not (a look)
   */
  public ControlsApplied.Result apply(
      BoardDefinition board,
      String key,
      List<BoardEntry> candidates,
      List<BoardControl> live,
      Instant scoredAt,
      Instant now,
      Collection<Long> alsoLookUp,
      boolean record) {
    ControlsApplied.Result shown = apply(board, candidates, live, scoredAt, now, alsoLookUp);
    BoardReview reviewer = review.getIfAvailable();
    if (board.review() == BoardDefinition.Review.OFF || reviewer == null) {
      return shown;
    }
    Set<Long> controlled = new HashSet<>();
    Set<Long> pinned = new HashSet<>();
    for (BoardControl control : live) {
      if (ControlsApplied.live(control, now)) {
        if (control.action() == ControlAction.BLOCK) {
          controlled.add(control.itemId());
        } else if (control.action() == ControlAction.PIN) {
          pinned.add(control.itemId());
        }
      }
    }
    List<BoardEntry> ranked = new ArrayList<>(shown.entries());
    shown.reserve().stream().filter(e -> !controlled.contains(e.itemId())).forEach(ranked::add);
    Set<Long> held = new HashSet<>(reviewer.held(board, key, ranked, now, record));
    held.removeAll(pinned);
    if (held.isEmpty()) {
      return shown;
    }
    // Held as blocks are: kept last in the reserve, with their scores, never shown.
    List<BoardControl> holding = new ArrayList<>(live);
    for (Long id : held) {
      holding.add(
          new BoardControl(
              key, id, ControlAction.BLOCK, null, null, null, "review", "review", now));
    }
    List<BoardEntry> all = new ArrayList<>(shown.entries());
    all.addAll(shown.reserve());
    return apply(board, all, holding, scoredAt, now, List.of());
  }

  private ControlsApplied.Result apply(
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
    Map<Long, BoardControl> controls = new HashMap<>();
    for (BoardControl control : live) {
      if (ControlsApplied.live(control, now)) {
        controls.put(control.itemId(), control);
      }
    }
    Map<Long, BoardEntry> found = new HashMap<>();
    for (ItemCards.Card card : items.cards(board.biz(), ids).values()) {
      BoardControl control = controls.get(card.itemId());
      ControlAction action = control == null ? null : control.action();
      Double score =
          board
              .kind()
              .lookUpScore(
                  board,
                  board.ranked(card.counters()),
                  ControlsApplied.scoredCreation(control, card.createdAtMillis(), at),
                  at,
                  action == ControlAction.PIN);
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
