package io.hotrank.board;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Operators' controls of the boards: pin, boost and block, one per item and board. A change is
 * stored with its audit entry in one transaction and shows in the board's reads on every instance
 * at once, without waiting for the next computation. Thread-safe.
 */
public interface BoardControls {

  /**
   * The live controls of a board, pins first by position and time set, then by item id.
   *
   * @throws BoardNotFoundException if no board has this name
   */
  List<BoardControl> list(String board);

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
  BoardControl set(String board, long itemId, ControlChange change, String actor);

  /**
   * Removes the control of one item on one board, if there is one.
   *
   * @param reason why, kept in the audit log; optional
   * @param actor the operator's name, recorded in the audit log
   * @return whether there was a control to remove
   * @throws BoardNotFoundException if no board has this name
   */
  boolean remove(String board, long itemId, @Nullable String reason, String actor);
}
