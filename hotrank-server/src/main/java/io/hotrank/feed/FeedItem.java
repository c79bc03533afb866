package io.hotrank.feed;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.hotrank.item.Item;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a feed, in the shape of a board's entries.
 *
 * @param rank 1-based position in the feed, counted across its pages
 * @param score the board's score on the hot feed; absent from time-ordered feeds
 */
public record FeedItem(
    int rank,
    String biz,
    long itemId,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double score,
    String title,
    long authorId,
    Instant createdAt,
    Item.Counts counts) {

  static FeedItem of(int rank, Item item, @Nullable Double score) {
    return new FeedItem(
        rank,
        item.biz(),
        item.id(),
        score,
        item.title(),
        item.authorId(),
        item.createdAt(),
        item.counts());
  }
}
