package io.hotrank.core.score;

import java.util.Locale;
import java.util.Optional;

/**
 * The kinds of interaction counted in {@link Interactions}.
 *
 * <p>Each constant has a <em>wire name</em>, its lower-case name (for example {@code "like"}),
 * which is how it is spelled in configuration and requests. Enum constants are immutable and safe
 * to use from any thread.
 */
public enum InteractionType {
  /** An up-vote. */
  LIKE,
  /** A view. */
  VIEW,
  /** A comment. */
  COMMENT,
  /** A share. */
  SHARE,
  /** A collect (bookmark, favourite). */
  COLLECT,
  /** A down-vote. */
  DISLIKE;

  // Computed once: values() clones its array and toLowerCase allocates on every call.
  private static final InteractionType[] ALL = values();
  private final String wireName = name().toLowerCase(Locale.ROOT);

  /**
   * Returns the external spelling of this type.
   *
   * @return the lower-case name, for example {@code "collect"}; never {@code null}
   */
  public String wireName() {
    return wireName;
  }

  /**
   * Looks up a type by its exact wire name.
   *
   * <p>Matching is case-sensitive: {@code "like"} is found, {@code "Like"} is not. Never throws.
   *
   * @param wireName the external spelling, may be {@code null}
   * @return the matching type, or empty if {@code wireName} is {@code null} or not a wire name
   */
  public static Optional<InteractionType> fromWireName(String wireName) {
    for (InteractionType type : ALL) {
      if (type.wireName.equals(wireName)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  /**
   * Reads this type's count out of a set of counts.
   *
   * @param counts the counts to read
   * @return the count for this type, never negative
   * @throws NullPointerException if {@code counts} is {@code null}
   */
  public long countIn(Interactions counts) {
    return switch (this) {
      case LIKE -> counts.like();
      case VIEW -> counts.view();
      case COMMENT -> counts.comment();
      case SHARE -> counts.share();
      case COLLECT -> counts.collect();
      case DISLIKE -> counts.dislike();
    };
  }
}
