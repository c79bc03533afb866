package io.hotrank.feed;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a feed.
 *
 * @param nextCursor where the next page starts; null on the last page
 */
public record FeedPage(List<FeedItem> items, @Nullable String nextCursor) {}
