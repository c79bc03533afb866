package io.hotrank.item;

import io.hotrank.core.score.Interactions;

/**
 * An item's counters: the raw ones, every interaction counted once, and the trusted ones, each
 * interaction weighed by its actor (bots and flagged actors 0, new accounts less, at most a few of
 * one actor's interactions of a type) and kept in thousandths of an interaction, so that a weighted
 * event adds an exact integer. A board ranks by one or the other ({@code hotrank.boards[i].trust});
 * a formula reads thousandths through {@link io.hotrank.core.score.HotScore#countingIn}.
 *
 * @param raw every interaction counted once
 * @param trusted the interactions weighed by their actors, in thousandths
 */
public record Counters(Interactions raw, Interactions trusted) {

  /** Parts of an interaction in a trusted counter. */
  public static final long TRUSTED_UNIT = 1000;

  /** An item nobody has interacted with. */
  public static final Counters NONE = new Counters(Interactions.NONE, Interactions.NONE);

  /**
   * Counters of interactions that all weighed 1: what was counted before trusted counters existed,
   * and what a test states in whole interactions.
   */
  public static Counters allTrusted(Interactions raw) {
    return new Counters(
        raw,
        new Interactions(
            raw.like() * TRUSTED_UNIT,
            raw.view() * TRUSTED_UNIT,
            raw.comment() * TRUSTED_UNIT,
            raw.share() * TRUSTED_UNIT,
            raw.collect() * TRUSTED_UNIT,
            raw.dislike() * TRUSTED_UNIT));
  }
}
