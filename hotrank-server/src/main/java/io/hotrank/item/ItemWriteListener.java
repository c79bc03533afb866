package io.hotrank.item;

import java.time.Instant;

/**
 * Told of every item created, edited or deleted, after its transaction committed, on the writing
 * thread (live boards admit a created item, and segment boards move an edited one between their
 * segments). An exception is logged; the write stands.
 */
public interface ItemWriteListener {

  void created(String biz, long itemId, Instant createdAt);

  /** Its author, title, tags or attributes may have changed. */
  default void edited(String biz, long itemId) {}

  /** It was deleted (not before: a delete of a deleted item tells nothing). */
  default void deleted(String biz, long itemId, Instant createdAt) {}
}
