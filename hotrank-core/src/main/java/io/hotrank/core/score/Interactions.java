package io.hotrank.core.score;

/**
 * How many times each kind of interaction has happened to one item.
 *
 * <p>All counts are non-negative; construction fails with an {@link IllegalArgumentException}
 * naming the first offending field otherwise. Instances are immutable and therefore safe to share
 * between threads.
 *
 * @param like number of likes (up-votes)
 * @param view number of views
 * @param comment number of comments
 * @param share number of shares
 * @param collect number of times the item was collected (bookmarked, favourited)
 * @param dislike number of dislikes (down-votes)
 */
public record Interactions(
    long like, long view, long comment, long share, long collect, long dislike) {

  /** An item nobody has interacted with yet: every count is zero. */
  public static final Interactions NONE = new Interactions(0, 0, 0, 0, 0, 0);

  /**
   * Validates the counts.
   *
   * @throws IllegalArgumentException if any count is negative; the message names the field
   */
  public Interactions {
    requireNonNegative("like", like);
    requireNonNegative("view", view);
    requireNonNegative("comment", comment);
    requireNonNegative("share", share);
    requireNonNegative("collect", collect);
    requireNonNegative("dislike", dislike);
  }

  /**
   * Every interaction counted once, whatever its type: what {@code scale-by} adds up per segment.
   */
  public long total() {
    return like + view + comment + share + collect + dislike;
  }

  private static void requireNonNegative(String field, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " must be >= 0 but was " + value);
    }
  }
}
