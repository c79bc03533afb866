package io.hotrank.review;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** An operator's decision on an item or an author. */
public enum ReviewStatus {
  /**
   * Listed on the public boards (an author's: each of their items without a decision of its own).
   */
  APPROVED,
  /** Never listed on a board under review. */
  REJECTED,
  /** Held until decided: back to review. */
  PENDING;

  /** The name as written in the API: {@code approved}, {@code rejected}, {@code pending}. */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The status of this wire name; null if it is none. */
  static @Nullable ReviewStatus parse(@Nullable String wire) {
    for (ReviewStatus status : values()) {
      if (status.wireName().equals(wire)) {
        return status;
      }
    }
    return null;
  }
}
