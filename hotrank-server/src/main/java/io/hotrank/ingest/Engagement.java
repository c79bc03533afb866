package io.hotrank.ingest;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Who gave an item its interactions, as the fold recorded them per actor: what review reads to tell
 * a ring (a few actors giving most of an item's interactions) from a crowd. Anonymous events, and
 * types whose cap is 0 ({@code hotrank.trust.max-per-actor}), keep no record per actor and are not
 * in it. Thread-safe.
 */
public interface Engagement {

  /** What one actor gave one item: likes and collects that stand 1 each, and every other one. */
  record ActorCount(long userId, long interactions) {}

  /**
   * Who gave one item its interactions.
   *
   * @param actors how many actors the fold recorded on it
   * @param mostActive its most active actors, the most active first (ties: the smaller id), as many
   *     as asked at most
   */
  record Given(int actors, List<ActorCount> mostActive) {}

  /**
   * Each item's actors: how many, and the most active with their interactions (likes and collects
   * that stand count 1 each; views, comments, shares and dislikes every one the actor gave, past
   * the cap too), summed over the types. The database groups every record of the items; only the
   * {@code top} most active of each come back.
   *
   * @return by item id; items without any are absent
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  Map<Long, Given> byActor(String biz, Collection<Long> itemIds, int top);
}
