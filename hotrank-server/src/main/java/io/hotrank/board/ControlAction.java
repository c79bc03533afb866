package io.hotrank.board;

import java.util.Locale;

/** What an operator's control does to one item on one board. */
public enum ControlAction {
  /** Shown at a fixed rank while the control lives, whatever its score. */
  PIN,
  /** Score multiplied by a factor (for Reddit's logarithmic score, log10(factor) added). */
  BOOST,
  /** Never listed on the board. */
  BLOCK;

  /** The name as written in the API: {@code pin}, {@code boost}, {@code block}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
