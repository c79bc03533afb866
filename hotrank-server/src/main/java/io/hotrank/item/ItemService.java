package io.hotrank.item;

import io.hotrank.problem.Violations;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Creates, reads, edits and deletes content items. Validates every field before touching the
 * database; a refused request changes nothing.
 */
@Service
public class ItemService {

  private static final Logger log = LoggerFactory.getLogger(ItemService.class);

  /** A biz names a content type ("article", "video"): short, lower-case, URL-safe. */
  public static final Pattern BIZ = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");

  static final int MAX_TITLE = 200;
  static final int MAX_TAGS = 10;

  /** The longest tag. */
  public static final int MAX_TAG = 32;

  /** How far a client clock may run ahead before a createdAt counts as in the future. */
  static final Duration FUTURE_TOLERANCE = Duration.ofMinutes(5);

  /**
   * The largest item id: 2^53 - 1, the largest integer a JavaScript client holds exactly. Explicit
   * ids above it are refused, so id arithmetic (the sequence's next value) never overflows; when a
   * biz's generated ids reach it, creating without an id answers {@link ItemIdsExhaustedException}.
   */
  public static final long MAX_ID = (1L << 53) - 1;

  private static final int ID_ATTEMPTS = 5;

  private final ItemStore store;
  private final CounterStore counters;
  private final LiveItems liveItems;
  private final ItemCacheWrites cacheWrites;
  private final ItemOutbox outbox;
  private final Bizes bizes;
  private final Clock clock;
  private final TransactionTemplate tx;
  private final TransactionTemplate ownTx;
  private final ObjectProvider<ItemWriteListener> writeListeners;

  ItemService(
      ItemStore store,
      CounterStore counters,
      LiveItems liveItems,
      ItemCacheWrites cacheWrites,
      ItemOutbox outbox,
      Bizes bizes,
      Clock clock,
      PlatformTransactionManager transactions,
      ObjectProvider<ItemWriteListener> writeListeners) {
    this.store = store;
    this.counters = counters;
    this.liveItems = liveItems;
    this.cacheWrites = cacheWrites;
    this.outbox = outbox;
    this.bizes = bizes;
    this.clock = clock;
    this.tx = new TransactionTemplate(transactions);
    this.ownTx = new TransactionTemplate(transactions);
    this.ownTx.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    this.writeListeners = writeListeners;
  }

  /**
   * Creates an item. Without an id, the next free id of the biz is assigned.
   *
   * @throws io.hotrank.problem.InvalidRequestException naming every invalid field
   * @throws UnknownBizException if the biz is neither configured nor created by an admin
   * @throws ItemExistsException if an explicit id is taken
   */
  public Item create(ItemRequest request) {
    Instant now = now();
    Violations violations = new Violations();
    validateBiz(request.biz(), "biz", violations);
    if (request.id() != null) {
      validateId(request.id(), "id", violations);
    }
    validateFields(request, violations);
    if (request.createdAt() != null) {
      violations.check(
          !request.createdAt().isAfter(now.plus(FUTURE_TOLERANCE)),
          "createdAt",
          "must not be in the future");
      violations.check(
          !request.createdAt().isBefore(Instant.EPOCH),
          "createdAt",
          "must not be before 1970-01-01T00:00:00Z");
    }
    violations.throwIfAny();
    bizes.requireWritable(request.biz(), "biz");
    Instant createdAt =
        request.createdAt() == null ? now : request.createdAt().truncatedTo(ChronoUnit.MILLIS);
    List<String> tags = tags(request);
    if (request.id() != null) {
      long id = request.id();
      cacheWrites.admitting(request.biz(), id);
      tx.executeWithoutResult(
          status -> {
            insert(request, id, tags, createdAt, now);
            store.reserveId(request.biz(), id);
          });
      store.makeCommitsDurable();
      cacheWrites.created(request.biz(), id);
      tellCreated(request.biz(), id, createdAt);
      return get(request.biz(), id);
    }
    // Explicit ids raise the sequence, so a generated id is normally free; an item inserted by
    // other means (a bulk load) may still hold one, and the next attempt takes another.
    for (int attempt = 1; ; attempt++) {
      long id = ownTx.execute(status -> store.nextId(request.biz()));
      cacheWrites.admitting(request.biz(), id);
      try {
        tx.executeWithoutResult(status -> insert(request, id, tags, createdAt, now));
        store.makeCommitsDurable();
        cacheWrites.created(request.biz(), id);
        tellCreated(request.biz(), id, createdAt);
        return get(request.biz(), id);
      } catch (ItemExistsException taken) {
        if (attempt == ID_ATTEMPTS) {
          throw taken;
        }
      }
    }
  }

  private void tellCreated(String biz, long id, Instant createdAt) {
    tell(biz, id, listener -> listener.created(biz, id, createdAt));
  }

  private void tell(String biz, long id, Consumer<ItemWriteListener> call) {
    writeListeners
        .orderedStream()
        .forEach(
            listener -> {
              try {
                call.accept(listener);
              } catch (RuntimeException e) {
                log.warn("{} failed on item {}/{}: {}", listener, biz, id, e.toString());
              }
            });
  }

  /**
   * The live item, read from the database (what a write answers; reads go through {@link
   * ItemReads}).
   *
   * @throws ItemNotFoundException if absent or deleted
   */
  public Item get(String biz, long id) {
    return item(stored(biz, id));
  }

  private ItemStore.Stored stored(String biz, long id) {
    return store.find(biz, id).orElseThrow(() -> new ItemNotFoundException(biz, id, null));
  }

  private Item item(ItemStore.Stored item) {
    String biz = item.biz();
    long id = item.id();
    // Read apart from the item (their owner is another store); a delete in between is a miss.
    Counters counts =
        counters.find(biz, id).orElseThrow(() -> new ItemNotFoundException(biz, id, null));
    return new Item(
        item.biz(),
        item.id(),
        item.authorId(),
        item.title(),
        item.tags(),
        item.attributes(),
        item.createdAt(),
        item.updatedAt(),
        Item.Counts.of(counts.raw()),
        Item.TrustedCounts.of(counts.trusted()));
  }

  private void insert(
      ItemRequest request, long id, List<String> tags, Instant createdAt, Instant now) {
    store.insert(
        request.biz(),
        id,
        request.authorId(),
        request.title(),
        tags,
        ItemAttributes.canonical(request.attributes()),
        createdAt,
        now);
    counters.insertZero(
        request.biz(),
        id,
        createdAt,
        new ItemCards.Labels(
            request.authorId(), tags, ItemAttributes.canonical(request.attributes()), 1),
        now);
    outbox.append(request.biz(), id, request.authorId(), createdAt.toEpochMilli());
  }

  /**
   * Replaces the descriptive fields of a live item (authorId, title, tags, attributes: one absent
   * from the request becomes empty) and raises its version, whatever changed. Its createdAt is
   * fixed at creation: editing an item never makes it younger on a board.
   *
   * @throws io.hotrank.problem.InvalidRequestException naming every invalid field, including a
   *     createdAt, biz or id in the body that differs from the stored item
   * @throws ItemNotFoundException if absent or deleted
   */
  public Item update(String biz, long id, ItemRequest request) {
    Violations violations = new Violations();
    validatePath(biz, id, violations);
    if (request.biz() != null) {
      violations.check(request.biz().equals(biz), "biz", "must match the URL");
    }
    if (request.id() != null) {
      violations.check(request.id() == id, "id", "must match the URL");
    }
    validateFields(request, violations);
    violations.throwIfAny();
    bizes.requireWritable(biz, "biz");
    ItemStore.Stored updated =
        tx.execute(
            status -> {
              Item current = get(biz, id);
              if (request.createdAt() != null
                  && !request
                      .createdAt()
                      .truncatedTo(ChronoUnit.MILLIS)
                      .equals(current.createdAt())) {
                Violations immutable = new Violations();
                immutable.add("createdAt", "cannot change after creation");
                immutable.throwIfAny();
              }
              store.update(
                  biz,
                  id,
                  request.authorId(),
                  request.title(),
                  tags(request),
                  ItemAttributes.canonical(request.attributes()),
                  now());
              ItemStore.Stored edited = stored(biz, id);
              counters.relabel(
                  biz,
                  id,
                  new ItemCards.Labels(
                      edited.authorId(),
                      edited.tags(),
                      ItemAttributes.canonical(edited.attributes()),
                      edited.version()));
              return edited;
            });
    store.makeCommitsDurable();
    cacheWrites.changed(biz, id, updated.version());
    tell(biz, id, listener -> listener.edited(biz, id));
    return item(updated);
  }

  /**
   * Deletes an item: it leaves every board at the next publish. Deleting a deleted item is a no-op;
   * its id stays taken.
   *
   * @throws ItemNotFoundException if no item ever had this biz and id
   */
  public void delete(String biz, long id) {
    Violations violations = new Violations();
    validatePath(biz, id, violations);
    violations.throwIfAny();
    bizes.requireWritable(biz, "biz");
    Deleted deleted =
        tx.execute(
            status -> {
              Instant now = now();
              ItemStore.Stored live = store.find(biz, id).orElse(null);
              if (live != null && store.markDeleted(biz, id, now)) {
                counters.markDeleted(biz, id, now);
                return new Deleted(store.version(biz, id), live.createdAt());
              } else if (!store.existsIncludingDeleted(biz, id)) {
                throw new ItemNotFoundException(biz, id, null);
              }
              return null; // deleted before: nothing changed
            });
    store.makeCommitsDurable();
    liveItems.forget(biz, id);
    if (deleted != null) {
      cacheWrites.changed(biz, id, deleted.version());
      tell(biz, id, listener -> listener.deleted(biz, id, deleted.createdAt()));
    }
  }

  /** What a delete changed: the item's new version, and when it was created. */
  private record Deleted(long version, Instant createdAt) {}

  /** Records a violation unless {@code biz} is a valid biz name. */
  public static void validateBiz(String biz, String field, Violations violations) {
    if (violations.check(biz != null && !biz.isEmpty(), field, "is required")) {
      violations.check(
          BIZ.matcher(biz).matches(),
          field,
          "must match " + BIZ.pattern() + " (lower-case letters, digits, '_' or '-', at most 32)");
    }
  }

  /** Records a violation unless {@code id} is a valid item id: 1 to {@link #MAX_ID}. */
  public static void validateId(long id, String field, Violations violations) {
    if (violations.check(id > 0, field, "must be a positive integer")) {
      violations.check(id <= MAX_ID, field, "must be at most " + MAX_ID);
    }
  }

  private static void validatePath(String biz, long id, Violations violations) {
    validateBiz(biz, "biz", violations);
    validateId(id, "id", violations);
  }

  private static void validateFields(ItemRequest r, Violations violations) {
    if (violations.check(r.authorId() != null, "authorId", "is required")) {
      violations.check(r.authorId() >= 0, "authorId", "must not be negative");
    }
    if (violations.check(r.title() != null && !r.title().isBlank(), "title", "is required")) {
      violations.check(
          r.title().length() <= MAX_TITLE,
          "title",
          "must be at most " + MAX_TITLE + " characters, was " + r.title().length());
      violations.check(
          !hasControlCharacter(r.title()), "title", "must not contain control characters");
    }
    List<String> tags = r.tags() == null ? List.of() : r.tags();
    violations.check(tags.size() <= MAX_TAGS, "tags", "at most " + MAX_TAGS + " tags");
    for (int i = 0; i < tags.size(); i++) {
      String tag = tags.get(i);
      violations.check(
          tag != null
              && !tag.isBlank()
              && tag.length() <= MAX_TAG
              && tag.indexOf(',') < 0
              && !hasControlCharacter(tag),
          "tags[" + i + "]",
          "must be 1 to " + MAX_TAG + " characters without ',' or control characters");
    }
    ItemAttributes.validate(r.attributes(), violations);
  }

  /**
   * NUL and other control characters: PostgreSQL refuses NUL in text, and none belong in a title.
   */
  private static boolean hasControlCharacter(String text) {
    return text.chars().anyMatch(Character::isISOControl);
  }

  private static List<String> tags(ItemRequest r) {
    return r.tags() == null ? List.of() : r.tags().stream().map(String::strip).distinct().toList();
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }
}
