package io.hotrank.item;

import java.time.Instant;

/**
 * Told of every item created, after its transaction committed, on the creating thread (live boards
 * admit it). An exception is logged; the creation stands.
 */
public interface ItemCreationListener {

  void created(String biz, long itemId, Instant createdAt);
}
