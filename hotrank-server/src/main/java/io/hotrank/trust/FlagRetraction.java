package io.hotrank.trust;

/**
 * What a flag takes back: the trusted weight of the actor's standing likes and collects, out of
 * every item's trusted counters. Implemented where the counters are folded, in two steps: {@link
 * #seal} in the flag's transaction orders the flag after every fold that weighed the actor before
 * it, so that from its commit on no fold gives the actor weight; {@link #retract}, in a transaction
 * of its own right after, takes back what still weighs, a set that can then only shrink.
 */
public interface FlagRetraction {

  /** Orders the flag with the folds, in the flag's transaction (which holds the actor's row). */
  void seal();

  /**
   * Takes the actor's standing likes and collects out of the trusted counters, in the caller's
   * transaction (which holds the actor's row).
   */
  void retract(long userId);
}
