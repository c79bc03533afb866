package io.hotrank.feed;

import io.hotrank.problem.Violations;
import org.jspecify.annotations.Nullable;

/** The page size a request asks for, checked against {@code hotrank.feeds.*-limit}. */
final class PageSizes {

  private PageSizes() {}

  static int of(@Nullable Integer limit, FeedProperties properties, Violations violations) {
    int size = limit == null ? properties.defaultLimit() : limit;
    violations.check(
        size >= 1 && size <= properties.maxLimit(),
        "limit",
        "must be 1 to " + properties.maxLimit());
    return size;
  }
}
