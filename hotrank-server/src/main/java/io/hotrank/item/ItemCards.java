package io.hotrank.item;

import io.hotrank.core.score.Interactions;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.regex.Pattern;

/**
 * What boards read of items: each one's card (display fields and counters), and a number that tells
 * a reader when the cards it read may have changed without a fold (an item edited or deleted on any
 * instance). Counters change only with folds, which the event log numbers.
 *
 * <p>Thread-safe.
 */
public interface ItemCards {

  /** The longest tag an item may carry. */
  int MAX_TAG = ItemService.MAX_TAG;

  /** What an attribute's key must match. */
  Pattern ATTRIBUTE_KEY = ItemAttributes.KEY;

  /**
   * What places an item on segment boards: its author, tags and attributes, and the item's version
   * they are of (raised by every edit), so that labels read before an edit never replace those read
   * after it.
   */
  record Labels(
      long authorId, List<String> tags, SortedMap<String, String> attributes, long version) {}

  /**
   * The labels of the live items among {@code ids}, of one biz, read from the database at once;
   * absent and deleted items are left out.
   *
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  Map<Long, Labels> labels(String biz, Collection<Long> ids);

  /**
   * An item as a board shows it: its display fields and counters, and its labels (what segment
   * boards it belongs on).
   */
  record Card(
      long itemId,
      String title,
      long authorId,
      long createdAtMillis,
      Interactions counts,
      Interactions trusted,
      Labels labels) {

    /** Both counters ({@link Counters}). */
    public Counters counters() {
      return new Counters(counts, trusted);
    }
  }

  /**
   * The cards of the live items among {@code ids}, of one biz, read from the database at once;
   * absent and deleted items are left out.
   *
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  Map<Long, Card> cards(String biz, Collection<Long> ids);

  /** An item's display fields, as a board shows them beside the counters it ranked by. */
  record Heading(long id, String title, long authorId) {}

  /** Titles and authors of the given live items of one biz, by id; deleted ones are absent. */
  Map<Long, Heading> headings(String biz, Collection<Long> ids);

  /**
   * A number that grows whenever this instance learns of an item write (a create, edit or delete
   * here, a notice of one elsewhere) or may have missed one (Redis reconnected). A card read after
   * the number was {@code n} shows every write that made it {@code n} or less.
   */
  long writesSeen();

  /**
   * How long a card read may be trusted without a write seen: a notice of a write elsewhere can be
   * lost (its instance died before Redis took it), and the item caches serve their local entries no
   * longer than this either ({@code hotrank.items.cache.metadata-fresh}).
   */
  Duration trustedFor();
}
