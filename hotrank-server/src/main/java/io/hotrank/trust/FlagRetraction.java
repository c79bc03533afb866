package io.hotrank.trust;

/**
 * What a flag takes back: the trusted weight of the actor's standing likes and collects, out of
 * every item's trusted counters. Implemented where the counters are folded; called inside the
 * flag's transaction, so that the flag and what it takes back commit together, once.
 */
public interface FlagRetraction {

  /**
   * Takes the actor's standing likes and collects out of the trusted counters, in the caller's
   * transaction (which holds the actor's row).
   */
  void retract(long userId);
}
