package io.hotrank.trust;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How events weigh by their actor, under {@code hotrank.trust.*} (docs/design/trust.md).
 *
 * @param newActorWeight what an actor's events weigh, times its trust, while the account is younger
 *     than {@code new-actor-age} at the event's time (0 to 1)
 * @param newActorAge how long an account counts as new
 * @param anonymousWeight what an event without a {@code userId}, or of an actor the platform never
 *     sent, weighs (0 to 1; 1 keeps what hotrank counted before actors)
 * @param maxPerActor how many of one actor's interactions of a type on one item the trusted
 *     counters take, over the item's life (likes and collects count once while they stand: their
 *     undo takes them back)
 * @param suspiciousRatio review: an item is suspicious when its interactions weighed by their
 *     actors are under this share of the same interactions counted raw (0 to 1)
 * @param concentration review: an item is suspicious when its three most active actors gave more
 *     than this share of its interactions (0 to 1)
 */
@ConfigurationProperties("hotrank.trust")
public record TrustProperties(
    @DefaultValue("0.2") double newActorWeight,
    @DefaultValue("7d") Duration newActorAge,
    @DefaultValue("1") double anonymousWeight,
    @DefaultValue MaxPerActor maxPerActor,
    @DefaultValue("0.5") double suspiciousRatio,
    @DefaultValue("0.5") double concentration) {

  /** The defaults, as a deployment that sets nothing gets them. */
  public static TrustProperties defaults() {
    return new TrustProperties(0.2, Duration.ofDays(7), 1, new MaxPerActor(3, 3, 1, 1), 0.5, 0.5);
  }

  /**
   * @throws IllegalArgumentException naming the setting out of range
   */
  public TrustProperties {
    fraction("new-actor-weight", newActorWeight);
    fraction("anonymous-weight", anonymousWeight);
    fraction("suspicious-ratio", suspiciousRatio);
    fraction("concentration", concentration);
    if (newActorAge.isNegative()) {
      throw new IllegalArgumentException(
          "hotrank.trust.new-actor-age must not be negative but was " + newActorAge);
    }
  }

  /**
   * The most interactions of one actor, type and item that the trusted counters take; 0 for no cap
   * (every interaction counts, and no row per actor and item is kept for the type: what a platform
   * that sends a view per page load with its user may choose, for the fold's sake).
   *
   * @param view views (default 3)
   * @param comment comments (default 3)
   * @param share shares (default 1)
   * @param dislike dislikes (default 1)
   */
  public record MaxPerActor(
      @DefaultValue("3") int view,
      @DefaultValue("3") int comment,
      @DefaultValue("1") int share,
      @DefaultValue("1") int dislike) {

    /**
     * @throws IllegalArgumentException naming a cap below 0
     */
    public MaxPerActor {
      notNegative("view", view);
      notNegative("comment", comment);
      notNegative("share", share);
      notNegative("dislike", dislike);
    }

    private static void notNegative(String name, int value) {
      if (value < 0) {
        throw new IllegalArgumentException(
            "hotrank.trust.max-per-actor." + name + " must be 0 (no cap) or more but was " + value);
      }
    }
  }

  private static void fraction(String name, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new IllegalArgumentException(
          "hotrank.trust." + name + " must be between 0 and 1 but was " + value);
    }
  }
}
