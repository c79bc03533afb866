package io.hotrank.ingest.fold;

import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.FoldListener;
import io.hotrank.item.Counters;
import io.hotrank.item.ItemCacheWrites;
import io.hotrank.item.ItemKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fold listener that keeps the item counters cache in step with the fold: the counters each
 * fold committed are written into Redis under the fold's number, so item reads show what the fold
 * keeps, at most {@code hotrank.items.cache.counts-fresh} late on other instances. Told last of the
 * listeners, so boards never wait on it.
 *
 * <p>A fold whose process died between its commit and its Redis write would leave its items'
 * counters stale in Redis until their entries expire. So the writes move a mark in Redis, and a
 * fold (or an idle second) that finds the mark behind the fold before it rewrites the items of the
 * missing folds from the database, {@link #MAX_REPLAY} folds per call.
 */
final class CountsCacheWriter implements FoldListener {

  private static final Logger log = LoggerFactory.getLogger(CountsCacheWriter.class);

  /** Missing folds rewritten per call at most; the rest on the next fold or idle second. */
  static final int MAX_REPLAY = 50;

  private final ItemCacheWrites cacheWrites;
  private final FoldHistory history;

  CountsCacheWriter(ItemCacheWrites cacheWrites, FoldHistory history) {
    this.cacheWrites = cacheWrites;
    this.history = history;
  }

  @Override
  public void folded(Fold fold) {
    Map<ItemKey, Counters> changed = HashMap.newHashMap(fold.counters().size());
    fold.counters()
        .forEach((key, counts) -> changed.put(new ItemKey(key.biz(), key.itemId()), counts));
    Long mark = cacheWrites.countsFolded(fold.foldNo(), changed);
    if (mark != null && catchUp(mark, fold.foldNo()) == fold.foldNo() - 1) {
      cacheWrites.countsCaughtUp(fold.foldNo());
    }
  }

  @Override
  public void idle(long lastFoldNo) {
    Long mark = cacheWrites.countsWrittenThrough();
    if (mark == null) {
      // Redis holds no counters: nothing in it is stale.
      cacheWrites.countsCaughtUp(lastFoldNo);
    } else if (mark > lastFoldNo && mark > history.lastFoldNo()) {
      log.warn(
          "The item counters' mark in Redis (fold {}) is ahead of the event log (fold {}): Redis"
              + " has seen another log; the mark is set back",
          mark,
          lastFoldNo);
      cacheWrites.countsMarkReset(lastFoldNo);
    } else if (mark < lastFoldNo) {
      catchUp(mark, lastFoldNo + 1);
    }
  }

  /**
   * Rewrites the items of the folds after {@code mark} and before {@code before}, at most {@link
   * #MAX_REPLAY} of them, and moves the mark past them.
   *
   * @return the last fold rewritten
   */
  private long catchUp(long mark, long before) {
    long upTo = Math.min(before - 1, mark + MAX_REPLAY);
    Set<ItemKey> items = new HashSet<>();
    for (long f = mark + 1; f <= upTo; f++) {
      List<Fold.ItemKey> changed = history.itemsOf(f);
      if (changed == null) {
        log.warn(
            "Fold {}'s record is pruned: the Redis counters of its items, if it never wrote them,"
                + " stay stale until their entries expire (hotrank.items.cache.redis-ttl)",
            f);
        continue;
      }
      changed.forEach(e -> items.add(new ItemKey(e.biz(), e.itemId())));
    }
    cacheWrites.rewriteCounts(items);
    cacheWrites.countsCaughtUp(upTo);
    log.info(
        "Rewrote the Redis counters of {} items changed by folds {}..{}, which had not written them",
        items.size(),
        mark + 1,
        upTo);
    return upTo;
  }
}
