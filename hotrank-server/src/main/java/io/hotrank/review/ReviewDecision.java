package io.hotrank.review;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An operator's decision, as stored and as the API answers it.
 *
 * @param subject {@code item} or {@code author}
 * @param biz the item's biz; empty for an author
 * @param id the item's or the author's id
 * @param status what was decided
 * @param reason why, if the operator said
 * @param decidedBy the operator
 * @param decidedAt when
 */
public record ReviewDecision(
    String subject,
    String biz,
    long id,
    ReviewStatus status,
    @Nullable String reason,
    String decidedBy,
    Instant decidedAt) {

  /** The subject of a decision on an item. */
  public static final String ITEM = "item";

  /** The subject of a decision on an author. */
  public static final String AUTHOR = "author";
}
