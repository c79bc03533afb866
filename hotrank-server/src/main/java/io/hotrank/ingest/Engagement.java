package io.hotrank.ingest;

import java.util.Collection;
import java.util.Map;

/**
 * Who gave an item its interactions, as the fold recorded them per actor: what review reads to tell
 * a ring (a few actors giving most of an item's interactions) from a crowd. Anonymous events, and
 * types whose cap is 0 ({@code hotrank.trust.max-per-actor}), keep no record per actor and are not
 * in it. Thread-safe.
 */
public interface Engagement {

  /**
   * Each item's interactions by actor: likes and collects that stand count 1 each, views, comments,
   * shares and dislikes every one the actor gave (past the cap too), summed over the types.
   *
   * @return by item id, by user id, interactions; items without any are absent
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  Map<Long, Map<Long, Long>> byActor(String biz, Collection<Long> itemIds);
}
