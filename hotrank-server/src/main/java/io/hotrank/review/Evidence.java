package io.hotrank.review;

import java.util.List;

/**
 * Why an item looks bought, or does not: what the review queue shows beside it.
 *
 * @param rawPoints the item's weighted interactions as the board weighs them (its up-votes: the
 *     positive part of the score's numerator), every interaction counted once
 * @param trustedPoints the same, every interaction weighed by its actor
 * @param trustedRatio {@code trustedPoints / rawPoints}; 1 when there are none
 * @param interactions the item's raw interactions of every type
 * @param distinctActors the actors the fold recorded on it (anonymous events have none)
 * @param topActorsShare what its three most active actors gave, over its interactions
 * @param newActorsShare the share of its 100 most active actors whose account is younger than
 *     {@code hotrank.trust.new-actor-age}
 * @param flaggedActorsShare the share of its 100 most active actors that are flagged or bots
 * @param reasons {@code trusted-ratio} and {@code concentration}, those that hold; empty when the
 *     item is not suspicious
 */
public record Evidence(
    double rawPoints,
    double trustedPoints,
    double trustedRatio,
    long interactions,
    int distinctActors,
    double topActorsShare,
    double newActorsShare,
    double flaggedActorsShare,
    List<String> reasons) {

  /** The reason given when the trusted points are too few. */
  public static final String RATIO = "trusted-ratio";

  /** The reason given when a few actors gave most of the interactions. */
  public static final String CONCENTRATION = "concentration";

  /** Whether any reason holds. */
  public boolean suspicious() {
    return !reasons.isEmpty();
  }
}
