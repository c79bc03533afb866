package io.hotrank.feed;

import io.hotrank.item.Bizes;
import io.hotrank.item.Item;
import io.hotrank.item.ItemReads;
import io.hotrank.item.ItemService;
import io.hotrank.item.ItemStore;
import io.hotrank.item.ItemStore.Keyed;
import io.hotrank.problem.Violations;
import io.hotrank.web.Cursors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * The latest feed of a biz and its tag feeds: items newest first (ties by id, highest first), paged
 * by a keyset cursor on {@code (createdAt, id)}, so an item created or deleted meanwhile never
 * moves another between pages. Ids come from one index query; the items, with their counts, from
 * the item cache in one batch. An item deleted between the two is skipped and the page filled from
 * further down, so pages stay full while items remain.
 */
@Service
class TimeFeeds {

  /** How many candidate batches a page may take when deletions race it, at most. */
  private static final int MAX_ROUNDS = 8;

  private final ItemStore store;
  private final ItemReads reads;
  private final Cursors cursors;
  private final FeedProperties properties;
  private final Bizes bizes;

  TimeFeeds(
      ItemStore store, ItemReads reads, Cursors cursors, FeedProperties properties, Bizes bizes) {
    this.bizes = bizes;
    this.store = store;
    this.reads = reads;
    this.cursors = cursors;
    this.properties = properties;
  }

  /** A page of the newest items of {@code biz}, or of its {@code tag} when not null. */
  FeedPage page(
      @Nullable String biz,
      @Nullable String tag,
      @Nullable Integer limit,
      @Nullable String cursor) {
    Violations violations = new Violations();
    ItemService.validateBiz(biz, "biz", violations);
    if (tag != null) {
      violations.check(
          !tag.isEmpty() && tag.length() <= ItemService.MAX_TAG,
          "tag",
          "must be 1 to " + ItemService.MAX_TAG + " characters");
    }
    int size = PageSizes.of(limit, properties, violations);
    violations.throwIfAny();
    bizes.requireReadable(java.util.Objects.requireNonNull(biz), "biz");
    return page(java.util.Objects.requireNonNull(biz), tag, size, cursor);
  }

  private FeedPage page(String biz, @Nullable String tag, int size, @Nullable String cursor) {
    String kind = tag == null ? "latest:" + biz : "tag:" + biz + ":" + tag;
    List<String> fields = cursors.decode(kind, cursor, 3);
    Long afterCreatedAt = fields == null ? null : Cursors.longField(fields, 0);
    long afterId = fields == null ? 0 : Cursors.longField(fields, 1);
    int rank = fields == null ? 0 : (int) Cursors.longField(fields, 2);

    // One more than the page, to know whether another page follows.
    List<Item> found = new ArrayList<>();
    boolean ended = false;
    for (int round = 0; round < MAX_ROUNDS && found.size() <= size; round++) {
      int want = size + 1 - found.size();
      List<Keyed> candidates = store.newest(biz, tag, afterCreatedAt, afterId, want);
      if (candidates.isEmpty()) {
        ended = true;
        break;
      }
      Map<Long, Item> live = new HashMap<>();
      for (Item item : reads.getAll(biz, candidates.stream().map(Keyed::id).toList()).items()) {
        live.put(item.id(), item);
      }
      for (Keyed k : candidates) {
        Item item = live.get(k.id());
        if (item != null) {
          found.add(item);
        }
      }
      Keyed last = candidates.getLast();
      afterCreatedAt = last.createdAt();
      afterId = last.id();
      if (candidates.size() < want) {
        ended = true;
        break;
      }
    }
    List<FeedItem> items = new ArrayList<>();
    for (int i = 0; i < Math.min(size, found.size()); i++) {
      items.add(FeedItem.of(rank + i + 1, found.get(i), null));
    }
    String next = null;
    if (found.size() > size) {
      FeedItem last = items.getLast();
      next = cursor(kind, last.createdAt().toEpochMilli(), last.itemId(), last.rank());
    } else if (!ended && afterCreatedAt != null) {
      // The rounds ran out on items deleted meanwhile: a short page, and the feed goes on from the
      // last one looked at.
      next = cursor(kind, afterCreatedAt, afterId, rank + items.size());
    }
    return new FeedPage(items, next);
  }

  private String cursor(String kind, long createdAt, long id, int rank) {
    return cursors.encode(
        kind, List.of(Long.toString(createdAt), Long.toString(id), Integer.toString(rank)));
  }
}
