package io.hotrank.item;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Which items exist and are live, answered from a local cache so that accepting a batch of events
 * costs no query per event: the misses of one batch are loaded together in one query.
 *
 * <p>Deletion is final, so a deleted item is remembered until evicted. A live item is remembered
 * for {@code hotrank.items.live.ttl}: this instance forgets it at once when it deletes it, other
 * instances at the latest when the entry expires (events they accept meanwhile for the deleted item
 * are dropped by the folder, which applies nothing to a deleted item). Absent ids are not
 * remembered, so an item created on another instance is accepted at once.
 */
@Component
public class LiveItems {

  private record Key(String biz, long id) {}

  private final ItemStore store;
  private final Cache<Key, Boolean> live;
  private final Cache<Key, Boolean> deleted;

  /**
   * @param size how many items each of the two caches holds at most
   * @param ttl how long a live item is remembered
   */
  @Autowired
  LiveItems(ItemStore store, LiveItemsProperties properties) {
    this(store, properties.entries(), properties.ttl());
  }

  LiveItems(ItemStore store, long size, Duration ttl) {
    this.store = store;
    this.live = Caffeine.newBuilder().maximumSize(size).expireAfterWrite(ttl).build();
    this.deleted = Caffeine.newBuilder().maximumSize(size).build();
  }

  /**
   * The ids among {@code ids} (of one biz) that are absent or deleted, in the order given; one
   * query for those not cached, none when all are.
   */
  public List<Long> notLive(String biz, Collection<Long> ids) {
    List<Long> unknown = new ArrayList<>();
    Map<Long, Boolean> known = new HashMap<>();
    for (Long id : ids) {
      Key key = new Key(biz, id);
      if (live.getIfPresent(key) != null) {
        known.put(id, true);
      } else if (deleted.getIfPresent(key) != null) {
        known.put(id, false);
      } else if (!known.containsKey(id)) {
        unknown.add(id);
        known.put(id, false);
      }
    }
    if (!unknown.isEmpty()) {
      store
          .deletedFlags(biz, unknown)
          .forEach(
              (id, isDeleted) -> {
                (isDeleted ? deleted : live).put(new Key(biz, id), true);
                known.put(id, !isDeleted);
              });
    }
    return ids.stream().filter(id -> !known.get(id)).toList();
  }

  /**
   * Forgets everything: for when the item tables were changed outside hotrank (a restore, a test
   * that empties them), where "deleted for good" no longer holds.
   */
  public void forgetAll() {
    live.invalidateAll();
    deleted.invalidateAll();
  }

  /** Forgets what this instance knew of an item (it was just created or deleted here). */
  public void forget(String biz, long id) {
    live.invalidate(new Key(biz, id));
  }
}
