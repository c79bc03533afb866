package io.hotrank.board.publish;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardType;
import io.hotrank.board.ControlAction;
import io.hotrank.board.ControlsApplied;
import io.hotrank.item.CounterStore;
import io.hotrank.item.Item;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * Applies a board's controls as a publish reads them from the database ({@link ControlsApplied}),
 * and looks up the items a control names that are not among the candidates: one query for their
 * display fields and counters ({@link CounterStore#cards}, which leaves deleted items out and reads
 * only the board's biz), scored as the board scores:
 *
 * <ul>
 *   <li>a batch board by its algorithm at the computation's instant, the one its other entries were
 *       scored at; a boosted or unblocked item created outside the window is not ranked (the
 *       computation would not have seen it), a pinned one is shown wherever it was created;
 *   <li>a leaderboard by the counter's value, which is what its sorted sets hold;
 *   <li>a window board has no score outside its sorted sets: a pinned item found here shows 0 until
 *       the board's next publish fetches it from Redis (its job over-fetches controlled items); a
 *       boosted or unblocked one waits for that publish.
 * </ul>
 *
 * Thread-safe.
 */
@Component
public class ControlledEntries {

  private final BoardControlStore controls;
  private final CounterStore counters;

  ControlledEntries(BoardControlStore controls, CounterStore counters) {
    this.controls = controls;
    this.counters = counters;
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
    long windowStart = at.minus(board.window()).toEpochMilli();
    for (CounterStore.Card card : counters.cards(board.biz(), ids).values()) {
      boolean pinned = actions.get(card.itemId()) == ControlAction.PIN;
      double score;
      if (board.scoresItems()) {
        boolean inWindow =
            card.createdAtMillis() >= windowStart && card.createdAtMillis() <= at.toEpochMilli();
        if (!pinned && !inWindow) {
          continue;
        }
        score = board.scoreAt(card.counts(), card.createdAtMillis(), at);
      } else if (board.type() == BoardType.LEADERBOARD && board.counter() != null) {
        score = board.counter().countIn(card.counts());
      } else if (pinned) {
        score = 0;
      } else {
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
