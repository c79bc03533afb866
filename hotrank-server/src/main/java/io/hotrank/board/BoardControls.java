package io.hotrank.board;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Operators' controls of the boards: pin, boost, block and second chance, one per item and board. A
 * change is stored with its audit entry in one transaction and shows in the board's reads on every
 * instance at once, without waiting for the next computation. Thread-safe.
 */
public interface BoardControls {

  /**
   * The live controls of a board, pins first by position and time set, then by item id.
   *
   * @throws BoardNotFoundException if no board has this name
   */
  default List<BoardControl> list(String board) {
    return list(board, null);
  }

  /**
   * The live controls set on one segment board of a family (not the family's, which apply to every
   * segment and are listed under the board's name).
   *
   * @param segment null for the board's own controls: {@link #list(String)}
   * @throws io.hotrank.problem.InvalidRequestException if the board is not segmented or the segment
   *     could never exist
   */
  List<BoardControl> list(String board, @Nullable String segment);

  /**
   * Sets the control of one item on one board, replacing the item's previous control.
   *
   * @param actor the operator's name, recorded in the audit log
   * @return the control as stored
   * @throws BoardNotFoundException if no board has this name
   * @throws io.hotrank.item.ItemNotFoundException if the item does not exist or is deleted, or
   *     belongs to another biz
   * @throws io.hotrank.problem.InvalidRequestException naming the field that is invalid
   */
  default BoardControl set(String board, long itemId, ControlChange change, String actor) {
    return set(board, null, itemId, change, actor);
  }

  /**
   * Sets the control of one item on one segment board of a family. Where a family control names the
   * same item, a block wins wherever it was set; otherwise the segment's control does.
   *
   * @param segment null for the board's own control: on a segmented board, it applies to every
   *     segment (a block hides the item everywhere, a pin pins it in each segment it belongs to)
   */
  BoardControl set(
      String board, @Nullable String segment, long itemId, ControlChange change, String actor);

  /**
   * Removes the control of one item on one board, if there is one.
   *
   * @param reason why, kept in the audit log; optional
   * @param actor the operator's name, recorded in the audit log
   * @return whether there was a control to remove
   * @throws BoardNotFoundException if no board has this name
   */
  default boolean remove(String board, long itemId, @Nullable String reason, String actor) {
    return remove(board, null, itemId, reason, actor);
  }

  /** Removes the control of one item on one segment board, if there is one. */
  boolean remove(
      String board, @Nullable String segment, long itemId, @Nullable String reason, String actor);
}
