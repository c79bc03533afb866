package io.hotrank.event;

import org.jspecify.annotations.Nullable;

/**
 * One validated interaction event.
 *
 * @param index its position in the batch it came in, for error messages
 * @param biz the item's biz
 * @param itemId the item's id
 * @param type what happened
 * @param userId who did it, or 0 when the event names no user
 * @param atMillis when it happened (the client's {@code at}, else the time of receipt), epoch ms
 * @param id the client's id of the event, unique per biz ({@code [A-Za-z0-9._:-]}, 1 to 64
 *     characters), or null: an event whose (biz, id) was accepted before is a duplicate
 */
public record Event(
    int index,
    String biz,
    long itemId,
    EventType type,
    long userId,
    long atMillis,
    @Nullable String id) {

  /** An event without an id. */
  public Event(int index, String biz, long itemId, EventType type, long userId, long atMillis) {
    this(index, biz, itemId, type, userId, atMillis, null);
  }

  /** Whether the event names a user whose like or collect state it changes (or re-asserts). */
  public boolean changesUserState() {
    return userId != 0 && type.perUser();
  }
}
