package io.hotrank.ingest;

import io.hotrank.core.score.Interactions;
import io.hotrank.item.ItemCacheWrites;
import io.hotrank.item.ItemKey;
import java.util.HashMap;
import java.util.Map;

/**
 * The fold listener that keeps the item counters cache in step with the fold: the counters each
 * fold committed are written into Redis under the fold's number, so item reads show what the fold
 * keeps, at most {@code hotrank.items.cache.counts-fresh} late on other instances. Told last of the
 * listeners, so boards never wait on it.
 */
final class CountsCacheWriter implements FoldListener {

  private final ItemCacheWrites cacheWrites;

  CountsCacheWriter(ItemCacheWrites cacheWrites) {
    this.cacheWrites = cacheWrites;
  }

  @Override
  public void folded(Fold fold) {
    Map<ItemKey, Interactions> changed = HashMap.newHashMap(fold.counters().size());
    fold.counters()
        .forEach((key, counts) -> changed.put(new ItemKey(key.biz(), key.itemId()), counts));
    cacheWrites.countsFolded(fold.foldNo(), changed);
  }
}
