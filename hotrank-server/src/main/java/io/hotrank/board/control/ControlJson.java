package io.hotrank.board.control;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardKey;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A control as JSON, the same in the HTTP answers and in the audit entries' before and after:
 * {@code board, itemId, action, position, factor, expiresAt, reason, actor, setAt}, with {@code
 * null} for what the action does not use.
 */
final class ControlJson {

  private ControlJson() {}

  static Map<String, Object> of(BoardControl control) {
    Map<String, Object> view = new LinkedHashMap<>();
    // A segment board's own control is stored under "<board>/<segment>": shown as both fields.
    BoardKey key = BoardKey.parse(control.board());
    view.put("board", key.board());
    if (key.segment() != null) {
      view.put("segment", key.segment());
    }
    view.put("itemId", control.itemId());
    view.put("action", control.action().wireName());
    view.put("position", control.position());
    view.put("factor", control.factor());
    view.put("expiresAt", control.expiresAt() == null ? null : control.expiresAt().toString());
    view.put("reason", control.reason());
    view.put("actor", control.actor());
    view.put("setAt", control.setAt().toString());
    return view;
  }
}
