package io.hotrank.core.score;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * How much each kind of interaction contributes to an item's points.
 *
 * <p>Every weight is a finite double, possibly negative (for example to make dislikes subtract). A
 * type that was not listed when the weights were built weighs zero. Instances are immutable and
 * safe to share between threads; two instances are equal when all six weights are equal.
 */
public final class Weights {

  private static final InteractionType[] TYPES = InteractionType.values();
  private static final Weights LIKES_ONLY = of(Map.of(InteractionType.LIKE.wireName(), 1.0));

  // Indexed by ordinal; an EnumMap would box every weight on each points() call.
  private final double[] byOrdinal;
  // Counts are given in 1/unit parts: 1 for whole interactions, 1000 for trusted counts (which
  // are kept in thousandths, so that a weighted event adds an exact integer).
  private final long unit;

  private Weights(double[] byOrdinal, long unit) {
    this.byOrdinal = byOrdinal;
    this.unit = unit;
  }

  /**
   * Builds weights from a map keyed by {@linkplain InteractionType#wireName() wire name}.
   *
   * <p>The map is copied; later changes to it have no effect. Types absent from the map weigh zero.
   *
   * @param byWireName weight per wire name, for example {@code {"like": 1.0, "comment": 2.0}}
   * @return the weights
   * @throws NullPointerException if {@code byWireName} or any of its values is {@code null}
   * @throws IllegalArgumentException if a key (including a {@code null} key) is not a wire name
   *     (the message names the key and lists the valid ones), or a weight is NaN or infinite
   */
  public static Weights of(Map<String, Double> byWireName) {
    Objects.requireNonNull(byWireName, "byWireName");
    double[] weights = new double[TYPES.length];
    for (Map.Entry<String, Double> entry : byWireName.entrySet()) {
      String key = entry.getKey();
      InteractionType type =
          InteractionType.fromWireName(key)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "unknown interaction type '"
                              + key
                              + "'; valid types are "
                              + validWireNames()));
      double weight = Objects.requireNonNull(entry.getValue(), () -> "weight of '" + key + "'");
      if (!Double.isFinite(weight)) {
        throw new IllegalArgumentException(
            "weight of '" + key + "' must be finite but was " + weight);
      }
      // Adding 0.0 turns -0.0 into 0.0 so that equals() does not tell them apart.
      weights[type.ordinal()] = weight + 0.0;
    }
    return new Weights(weights, 1);
  }

  /**
   * Returns the weights that count likes only: like weighs 1, everything else 0.
   *
   * @return the shared likes-only instance
   */
  public static Weights likesOnly() {
    return LIKES_ONLY;
  }

  /**
   * The same weights applied to counts given in {@code 1/unit} parts: {@link #points} and {@link
   * #upvotes} divide their sums by {@code unit}, so that counts of {@code 1000} per interaction
   * (thousandths) give the points that counts of {@code 1} give here.
   *
   * @param unit parts per interaction in the counts, at least 1
   * @return the weights for such counts
   * @throws IllegalArgumentException if {@code unit} is below 1
   */
  public Weights countingIn(long unit) {
    if (unit < 1) {
      throw new IllegalArgumentException("unit must be >= 1 but was " + unit);
    }
    return new Weights(byOrdinal, unit);
  }

  /**
   * Parts per interaction in the counts these weights apply to: 1 unless built by {@link
   * #countingIn}.
   *
   * @return the unit
   */
  public long unit() {
    return unit;
  }

  /**
   * Returns the weight of one interaction type.
   *
   * @param type the interaction type
   * @return its weight; zero if it was not listed when these weights were built
   * @throws NullPointerException if {@code type} is {@code null}
   */
  public double weight(InteractionType type) {
    return byOrdinal[type.ordinal()];
  }

  /**
   * Computes the points P: the sum over all six types, dislikes included, of weight times count.
   *
   * @param counts the item's interaction counts
   * @return P; finite unless weights and counts are so large that the sum overflows a double
   * @throws NullPointerException if {@code counts} is {@code null}
   */
  public double points(Interactions counts) {
    double sum = upvoteParts(counts) + weight(InteractionType.DISLIKE) * counts.dislike();
    return unit == 1 ? sum : sum / unit;
  }

  /**
   * Computes the up-votes: the sum over every type except {@link InteractionType#DISLIKE} of weight
   * times count.
   *
   * @param counts the item's interaction counts
   * @return the weighted up-votes
   * @throws NullPointerException if {@code counts} is {@code null}
   */
  public double upvotes(Interactions counts) {
    double sum = upvoteParts(counts);
    return unit == 1 ? sum : sum / unit;
  }

  private double upvoteParts(Interactions counts) {
    double sum = 0.0;
    for (InteractionType type : TYPES) {
      if (type != InteractionType.DISLIKE) {
        sum += byOrdinal[type.ordinal()] * type.countIn(counts);
      }
    }
    return sum;
  }

  /**
   * Two weights are equal when every type has the same weight and the units are the same.
   *
   * @param other the object to compare with
   * @return whether {@code other} is a {@code Weights} with identical weights
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof Weights that
        && unit == that.unit
        && Arrays.equals(byOrdinal, that.byOrdinal);
  }

  /**
   * Returns a hash code consistent with {@link #equals(Object)}.
   *
   * @return the hash code
   */
  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(byOrdinal) + Long.hashCode(unit);
  }

  /**
   * Describes all six weights by wire name, for example {@code Weights{like=1.0, view=0.0,
   * comment=0.0, share=0.0, collect=0.0, dislike=0.0}}.
   *
   * @return a human-readable description; the format is not a stable contract
   */
  @Override
  public String toString() {
    StringJoiner joiner = new StringJoiner(", ", "Weights{", "}");
    for (InteractionType type : TYPES) {
      joiner.add(type.wireName() + "=" + byOrdinal[type.ordinal()]);
    }
    if (unit != 1) {
      joiner.add("unit=1/" + unit);
    }
    return joiner.toString();
  }

  private static String validWireNames() {
    StringJoiner joiner = new StringJoiner(", ", "[", "]");
    for (InteractionType type : TYPES) {
      joiner.add(type.wireName());
    }
    return joiner.toString();
  }
}
