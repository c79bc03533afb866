package io.hotrank.review;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Review settings, under {@code hotrank.review.*} (the thresholds of suspicion are under {@code
 * hotrank.trust.*}).
 *
 * @param notifyRank a held item enters the review queue when it would rank this high or higher on a
 *     {@code suspicious} board (on a {@code required} board, anywhere on the board)
 * @param minInteractions an item with fewer raw interactions is never suspicious: three actors
 *     giving all of an item's first five likes is how every item starts
 */
@ConfigurationProperties("hotrank.review")
public record ReviewProperties(
    @DefaultValue("10") int notifyRank, @DefaultValue("20") int minInteractions) {

  /**
   * @throws IllegalArgumentException naming a setting out of range
   */
  public ReviewProperties {
    if (notifyRank < 1) {
      throw new IllegalArgumentException(
          "hotrank.review.notify-rank must be 1 or more but was " + notifyRank);
    }
    if (minInteractions < 0) {
      throw new IllegalArgumentException(
          "hotrank.review.min-interactions must be 0 or more but was " + minInteractions);
    }
  }
}
