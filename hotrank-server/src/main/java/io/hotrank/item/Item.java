package io.hotrank.item;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.hotrank.core.score.Interactions;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A content item as the API shows it: its identity, its descriptive fields and its interaction
 * counters.
 *
 * @param attributes the item's attributes, sorted by key (empty when it has none): equal attributes
 *     always show as the same JSON
 */
@JsonPropertyOrder({
  "biz",
  "id",
  "authorId",
  "title",
  "tags",
  "attributes",
  "createdAt",
  "updatedAt",
  "counts",
  "trustedCounts"
})
public record Item(
    String biz,
    long id,
    long authorId,
    String title,
    List<String> tags,
    Map<String, String> attributes,
    Instant createdAt,
    Instant updatedAt,
    Counts counts,
    TrustedCounts trustedCounts) {

  /** Keeps the attributes in their canonical order, whoever built the item. */
  public Item {
    attributes = ItemAttributes.canonical(attributes);
  }

  /** The interaction counters of an item, as the API names them. */
  @JsonPropertyOrder({"like", "view", "comment", "share", "collect", "dislike"})
  public record Counts(long like, long view, long comment, long share, long collect, long dislike) {

    /** The API form of core counters. */
    public static Counts of(Interactions c) {
      return new Counts(c.like(), c.view(), c.comment(), c.share(), c.collect(), c.dislike());
    }
  }

  /**
   * The trusted counters of an item: each interaction weighed by its actor, to the thousandth
   * (docs/design/trust.md).
   */
  @JsonPropertyOrder({"like", "view", "comment", "share", "collect", "dislike"})
  public record TrustedCounts(
      double like, double view, double comment, double share, double collect, double dislike) {

    /** The API form of trusted counters kept in thousandths. */
    public static TrustedCounts of(Interactions thousandths) {
      double unit = Counters.TRUSTED_UNIT;
      return new TrustedCounts(
          thousandths.like() / unit,
          thousandths.view() / unit,
          thousandths.comment() / unit,
          thousandths.share() / unit,
          thousandths.collect() / unit,
          thousandths.dislike() / unit);
    }
  }
}
