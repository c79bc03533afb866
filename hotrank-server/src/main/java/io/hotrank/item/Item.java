package io.hotrank.item;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.hotrank.core.score.Interactions;
import java.time.Instant;
import java.util.List;

/**
 * A content item as the API shows it: its identity, its descriptive fields and its interaction
 * counters.
 */
@JsonPropertyOrder({"biz", "id", "authorId", "title", "tags", "createdAt", "updatedAt", "counts"})
public record Item(
    String biz,
    long id,
    long authorId,
    String title,
    List<String> tags,
    Instant createdAt,
    Instant updatedAt,
    Counts counts) {

  /** The interaction counters of an item, as the API names them. */
  @JsonPropertyOrder({"like", "view", "comment", "share", "collect", "dislike"})
  public record Counts(long like, long view, long comment, long share, long collect, long dislike) {

    /** The API form of core counters. */
    public static Counts of(Interactions c) {
      return new Counts(c.like(), c.view(), c.comment(), c.share(), c.collect(), c.dislike());
    }
  }
}
