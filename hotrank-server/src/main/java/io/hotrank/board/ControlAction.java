package io.hotrank.board;

import java.util.Locale;

/** What an operator's control does to one item on one board. */
public enum ControlAction {
  /** Shown at a fixed rank while the control lives, whatever its score. */
  PIN,
  /** Score multiplied by a factor (for Reddit's logarithmic score, log10(factor) added). */
  BOOST,
  /** Never listed on the board. */
  BLOCK,
  /**
   * Scored as if created when the control was set, for one window of the board (Hacker News's
   * second-chance pool): once per item and board, on boards that score items by age.
   */
  SECOND_CHANCE;

  /**
   * The name as written in the API: {@code pin}, {@code boost}, {@code block}, {@code
   * second-chance}.
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The action of a name as written in the API (its case ignored).
   *
   * @throws IllegalArgumentException if no action has that name
   */
  public static ControlAction fromWire(String name) {
    for (ControlAction action : values()) {
      if (action.wireName().equalsIgnoreCase(name)) {
        return action;
      }
    }
    throw new IllegalArgumentException("no control action '" + name + "'");
  }
}
