package io.hotrank.ingest;

import io.hotrank.core.score.Interactions;
import io.hotrank.item.ItemReads;
import java.util.HashMap;
import java.util.Map;

/**
 * The fold listener that keeps the item counters cache in step with the fold: the counters each
 * fold committed are written into Redis under the fold's number, so item reads show what the fold
 * keeps, at most {@code hotrank.items.cache.counts-fresh} late on other instances. Told last of the
 * listeners, so boards never wait on it.
 */
final class CountsCacheWriter implements FoldListener {

  private final ItemReads reads;

  CountsCacheWriter(ItemReads reads) {
    this.reads = reads;
  }

  @Override
  public void folded(Fold fold) {
    Map<ItemReads.Key, Interactions> changed = HashMap.newHashMap(fold.counters().size());
    fold.counters()
        .forEach((key, counts) -> changed.put(new ItemReads.Key(key.biz(), key.itemId()), counts));
    reads.countsFolded(fold.foldNo(), changed);
  }
}
