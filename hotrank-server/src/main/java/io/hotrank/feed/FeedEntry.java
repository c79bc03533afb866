package io.hotrank.feed;

import java.util.Comparator;

/**
 * An item's place in a following feed, as the inboxes and outboxes hold it: its creation time (the
 * sorted set's score) and {@code <biz>:<id>} with the id zero-padded (the member), so that members
 * of one score sort as the feed orders ties. Newest first, then member, highest first: what Redis's
 * reverse range returns.
 */
record FeedEntry(long createdAt, String member) {

  /** Newest first; ties by member, highest first. */
  static final Comparator<FeedEntry> NEWEST_FIRST =
      Comparator.comparingLong(FeedEntry::createdAt).thenComparing(FeedEntry::member).reversed();

  static FeedEntry of(String biz, long id, long createdAt) {
    return new FeedEntry(createdAt, biz + ":" + String.format(java.util.Locale.ROOT, "%019d", id));
  }

  String biz() {
    return member.substring(0, member.lastIndexOf(':'));
  }

  long id() {
    return Long.parseLong(member.substring(member.lastIndexOf(':') + 1));
  }

  /** Whether this entry comes after {@code cursor} in the feed's order. */
  boolean after(FeedEntry cursor) {
    return NEWEST_FIRST.compare(this, cursor) > 0;
  }
}
