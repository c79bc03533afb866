package io.hotrank.event;

/**
 * One validated interaction event.
 *
 * @param index its position in the batch it came in, for error messages
 * @param biz the item's biz
 * @param itemId the item's id
 * @param type what happened
 * @param userId who did it, or 0 when the event names no user
 * @param atMillis when it happened (the client's {@code at}, else the time of receipt), epoch ms
 */
public record Event(
    int index, String biz, long itemId, EventType type, long userId, long atMillis) {

  /** Whether the event names a user whose like or collect state it changes (or re-asserts). */
  public boolean changesUserState() {
    return userId != 0 && type.perUser();
  }
}
