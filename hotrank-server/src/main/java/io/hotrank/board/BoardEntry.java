package io.hotrank.board;

import io.hotrank.item.Item;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One ranked entry of a published board, with every field the read API returns.
 *
 * @param rank 1-based position on the board
 * @param control the operator's control that shaped this entry (a pin, a boost or a second chance),
 *     null when none did; carries the score before the control so that a later re-publish can undo
 *     it
 */
public record BoardEntry(
    int rank,
    String biz,
    long itemId,
    double score,
    String title,
    long authorId,
    Instant createdAt,
    Item.Counts counts,
    @Nullable Applied control) {

  /** An entry no control shaped. */
  public BoardEntry(
      int rank,
      String biz,
      long itemId,
      double score,
      String title,
      long authorId,
      Instant createdAt,
      Item.Counts counts) {
    this(rank, biz, itemId, score, title, authorId, createdAt, counts, null);
  }

  /**
   * How a control shaped an entry, rendered as the entry's {@code control} field.
   *
   * @param action pin, boost or second-chance (blocked items are not listed at all)
   * @param position a pin's asked position; null for a boost
   * @param factor a boost's factor; null for a pin
   * @param baseScore the score the board's algorithm gave the item, before the boost
   */
  public record Applied(
      ControlAction action,
      @Nullable Integer position,
      @Nullable Double factor,
      double baseScore) {}

  /** This entry at another rank. */
  public BoardEntry withRank(int newRank) {
    return newRank == rank
        ? this
        : new BoardEntry(newRank, biz, itemId, score, title, authorId, createdAt, counts, control);
  }

  /** This entry with another score and control. */
  public BoardEntry withControl(double newScore, @Nullable Applied applied) {
    return new BoardEntry(rank, biz, itemId, newScore, title, authorId, createdAt, counts, applied);
  }

  /** This entry as its computation scored it: the score before any control, and no control. */
  public BoardEntry uncontrolled() {
    return control == null ? this : withControl(control.baseScore(), null);
  }
}
